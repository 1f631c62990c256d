import type { NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { bindingFingerprint } from './approval-binding.js';
import { opsCommandLine } from './ops-command-line.js';
import { readRepoCommit } from './read-repo-commit.js';
import { describeChanges } from './tofu-plan-changes.js';
import { tofuSavedPlan } from './tofu-saved-plan.js';

/**
 * Re-creates the node's VM from a plan saved for this job: `tofu plan -replace=<resource> -out=<plan>`
 * is what the approval shows (its summary and every resource it touches, read from
 * `tofu show -json`), and `tofu apply <plan>` applies exactly that plan, nothing re-planned. A plan
 * touching anything but the node's resource is refused, before the approval and again before applying.
 */
export function tofuRebuildStep(world: WorldConfig, id: string, node: NodeEntry, resource: string): Step {
  const saved = tofuSavedPlan(world, resource);
  const { cwd } = saved;
  return {
    id,
    title: 'rebuild VM (tofu)',
    target: node.name,
    commandLine: `${opsCommandLine(world, cwd, saved.planArgv(saved.placeholder))}; then tofu apply ${saved.placeholder}`,
    approval: {
      reason: `destroys and re-creates the VM of ${node.name}: everything on its disk is wiped`,
      mark: '⚠',
      required: async () => true,
      // Right before applying: the saved plan as it is now, so a plan file changed since the approval voids it.
      async current(ctx) {
        const commit = await readRepoCommit(ctx);
        const file = saved.fileOf(ctx.jobId);
        const argv = saved.applyArgv(file);
        const commandLine = opsCommandLine(world, cwd, argv);
        const changes = await saved.readIfSaved(ctx, file);
        if (!changes) return { commit, commandLine, fingerprint: `no saved plan at ${file}` };
        return {
          commit,
          commandLine,
          fingerprint: bindingFingerprint(commit, [...argv, JSON.stringify(changes)]),
        };
      },
      async bind(ctx) {
        const commit = await readRepoCommit(ctx);
        const file = saved.fileOf(ctx.jobId);
        const { changes, summary } = await saved.make(ctx, file);
        const argv = saved.applyArgv(file);
        return {
          commandLine: opsCommandLine(world, cwd, argv),
          targets: node.name,
          commit,
          fingerprint: bindingFingerprint(commit, [...argv, JSON.stringify(changes)]),
          preview: { ran: true, changedTasks: describeChanges(changes), diffExcerpt: summary.join('\n') },
        };
      },
    },
    async run(ctx: StepContext) {
      const file = saved.fileOf(ctx.jobId);
      await saved.read(ctx, file);
      try {
        const result = await ctx.shell.exec(opsTarget(world), {
          argv: saved.applyArgv(file),
          cwd,
          timeoutMs: ctx.cluster.timeouts.playbook,
          signal: ctx.signal,
          onLine: (line) => ctx.output(line),
        });
        if (result.exitCode !== 0) {
          throw new ClusterBotError('COMMAND_FAILED', `tofu apply ${file} exited ${result.exitCode}`, {
            details: { exitCode: result.exitCode },
          });
        }
      } finally {
        await saved.remove(ctx, file);
      }
      return { status: 'succeeded', summary: `VM of ${node.name} re-created from the approved plan` };
    },
  };
}
