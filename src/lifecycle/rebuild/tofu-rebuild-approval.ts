import type { NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { ApprovalPolicy } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { opsTarget } from '../targets.js';
import { describeChanges, parseTofuPlanJson } from './tofu-plan-changes.js';
import type { TofuReplacePlan } from './tofu-replace-plan.js';

const SUMMARY_LINE = /^(Plan: .*|\s*# .+ (will|must) be .*)$/;

/** The approval of a VM rebuild covers the plan saved for the job: its summary and every resource it touches. */
export function tofuRebuildApproval(
  world: WorldConfig,
  node: NodeEntry,
  plan: TofuReplacePlan,
): ApprovalPolicy {
  const { cwd } = plan;
  return {
    reason: `destroys and re-creates the VM of ${node.name}: everything on its disk is wiped`,
    mark: '⚠',
    required: async () => true,
    // Right before applying: the saved plan as it is now, so a plan file changed since the approval voids it.
    async current(ctx) {
      const commit = await readRepoCommit(ctx);
      const planFile = plan.fileOf(ctx);
      const argv = plan.applyArgv(planFile);
      const commandLine = opsCommandLine(world, cwd, argv);
      const shown = await captureRemote(ctx, opsTarget(world), ['tofu', 'show', '-json', planFile], {
        cwd,
      });
      if (shown.exitCode !== 0) return { commit, commandLine, fingerprint: `no saved plan at ${planFile}` };
      const changes = plan.checked(parseTofuPlanJson(shown.stdout));
      return {
        commit,
        commandLine,
        fingerprint: bindingFingerprint(commit, [...argv, JSON.stringify(changes)]),
      };
    },
    // A rejected or expired rebuild leaves no saved plan behind on the ops host.
    release: (ctx) => plan.remove(ctx, plan.fileOf(ctx)),
    async bind(ctx) {
      const commit = await readRepoCommit(ctx);
      const planFile = plan.fileOf(ctx);
      const planned = await captureRemote(ctx, opsTarget(world), plan.planArgv(planFile), {
        cwd,
        timeoutMs: ctx.cluster.timeouts.playbook,
      });
      if (planned.exitCode !== 0) {
        throw new ClusterBotError(
          'COMMAND_FAILED',
          `tofu plan -replace=${plan.resource} exited ${planned.exitCode}: ${planned.stderr.trim().split('\n').slice(-3).join(' ')}`,
          { details: { exitCode: planned.exitCode } },
        );
      }
      const changes = await plan.show(ctx, planFile);
      const summary = planned.stdout.split('\n').filter((line) => SUMMARY_LINE.test(line));
      const argv = plan.applyArgv(planFile);
      return {
        commandLine: opsCommandLine(world, cwd, argv),
        targets: node.name,
        commit,
        fingerprint: bindingFingerprint(commit, [...argv, JSON.stringify(changes)]),
        preview: {
          ran: true,
          changedTasks: describeChanges(changes),
          diffExcerpt: summary.map((line) => line.trim()).join('\n'),
        },
      };
    },
  };
}
