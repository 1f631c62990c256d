import type { NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { bindingFingerprint } from './approval-binding.js';
import { captureRemote, captureRemoteOrFail } from './capture-remote.js';
import { opsCommandLine } from './ops-command-line.js';
import { readRepoCommit } from './read-repo-commit.js';
import { repoPaths } from './repo-paths.js';
import {
  describeChanges,
  parseTofuPlanJson,
  replaceOnlyProblems,
  type TofuResourceChange,
} from './tofu-plan-changes.js';

const SUMMARY_LINE = /^(Plan: .*|\s*# .+ (will|must) be .*)$/;

/**
 * Re-creates the node's VM from a plan saved for this job: `tofu plan -replace=<resource> -out=<plan>`
 * is what the approval shows (its summary and every resource it touches, read from
 * `tofu show -json`), and `tofu apply <plan>` applies exactly that plan, nothing re-planned. A plan
 * touching anything but the node's resource is refused, before the approval and again before applying.
 */
export function tofuRebuildStep(world: WorldConfig, id: string, node: NodeEntry, resource: string): Step {
  const cwd = repoPaths(world).tofu;
  // Under .terraform/ (which `tofu init` made, and repos ignore): outside the tracked tree.
  const planFileNamed = (name: string) => `.terraform/cluster-bot-${name}.tfplan`;
  const planFileOf = (jobId: string) => planFileNamed(jobId.replace(/[^A-Za-z0-9_-]/g, '-'));
  const planArgv = (planFile: string) => [
    'tofu',
    'plan',
    `-replace=${resource}`,
    `-out=${planFile}`,
    '-input=false',
    '-no-color',
  ];
  const applyArgv = (planFile: string) => ['tofu', 'apply', '-input=false', '-no-color', planFile];
  const checkedChanges = (changes: TofuResourceChange[]) => {
    const problems = replaceOnlyProblems(changes, resource);
    if (problems.length > 0) {
      throw new ClusterBotError(
        'PRECONDITION_FAILED',
        `refused: the tofu plan must replace only ${resource}, but it touches ${problems.join('; ')}. ` +
          'Fix the tofu state or configuration first',
        { details: { resource, problems } },
      );
    }
    return changes;
  };
  const checkedPlan = async (ctx: StepContext, planFile: string) =>
    checkedChanges(
      parseTofuPlanJson(
        await captureRemoteOrFail(ctx, opsTarget(world), ['tofu', 'show', '-json', planFile], { cwd }),
      ),
    );
  const placeholder = planFileNamed('<job>');
  return {
    id,
    title: 'rebuild VM (tofu)',
    target: node.name,
    commandLine: `${opsCommandLine(world, cwd, planArgv(placeholder))}; then tofu apply ${placeholder}`,
    approval: {
      reason: `destroys and re-creates the VM of ${node.name}: everything on its disk is wiped`,
      mark: '⚠',
      required: async () => true,
      // Right before applying: the saved plan as it is now, so a plan file changed since the approval voids it.
      async current(ctx) {
        const commit = await readRepoCommit(ctx);
        const planFile = planFileOf(ctx.jobId);
        const argv = applyArgv(planFile);
        const commandLine = opsCommandLine(world, cwd, argv);
        const shown = await captureRemote(ctx, opsTarget(world), ['tofu', 'show', '-json', planFile], {
          cwd,
        });
        if (shown.exitCode !== 0) return { commit, commandLine, fingerprint: `no saved plan at ${planFile}` };
        const changes = checkedChanges(parseTofuPlanJson(shown.stdout));
        return {
          commit,
          commandLine,
          fingerprint: bindingFingerprint(commit, [...argv, JSON.stringify(changes)]),
        };
      },
      async bind(ctx) {
        const commit = await readRepoCommit(ctx);
        const planFile = planFileOf(ctx.jobId);
        const plan = await captureRemote(ctx, opsTarget(world), planArgv(planFile), {
          cwd,
          timeoutMs: ctx.cluster.timeouts.playbook,
        });
        if (plan.exitCode !== 0) {
          throw new ClusterBotError(
            'COMMAND_FAILED',
            `tofu plan -replace=${resource} exited ${plan.exitCode}: ${plan.stderr.trim().split('\n').slice(-3).join(' ')}`,
            { details: { exitCode: plan.exitCode } },
          );
        }
        const changes = await checkedPlan(ctx, planFile);
        const summary = plan.stdout.split('\n').filter((line) => SUMMARY_LINE.test(line));
        const argv = applyArgv(planFile);
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
    },
    async run(ctx: StepContext) {
      const planFile = planFileOf(ctx.jobId);
      await checkedPlan(ctx, planFile);
      try {
        const result = await ctx.shell.exec(opsTarget(world), {
          argv: applyArgv(planFile),
          cwd,
          timeoutMs: ctx.cluster.timeouts.playbook,
          signal: ctx.signal,
          onLine: (line) => ctx.output(line),
        });
        if (result.exitCode !== 0) {
          throw new ClusterBotError('COMMAND_FAILED', `tofu apply ${planFile} exited ${result.exitCode}`, {
            details: { exitCode: result.exitCode },
          });
        }
      } finally {
        // A saved plan can hold sensitive values, and is stale once applied (or tried).
        await captureRemote(ctx, opsTarget(world), ['rm', '-f', '--', planFile], { cwd }).catch(
          () => undefined,
        );
      }
      return { status: 'succeeded', summary: `VM of ${node.name} re-created from the approved plan` };
    },
  };
}
