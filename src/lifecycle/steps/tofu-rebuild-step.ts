import type { NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { bindingFingerprint } from './approval-binding.js';
import { captureRemote } from './capture-remote.js';
import { opsCommandLine } from './ops-command-line.js';
import { readRepoCommit } from './read-repo-commit.js';
import { repoPaths } from './repo-paths.js';

const PREVIEW_LINES = 40;

/** Re-creates the node's VM with `tofu apply -replace`: the host is wiped, so it is approved first. */
export function tofuRebuildStep(world: WorldConfig, id: string, node: NodeEntry, resource: string): Step {
  const cwd = repoPaths(world).tofu;
  const argv = ['tofu', 'apply', `-replace=${resource}`, '-auto-approve', '-input=false', '-no-color'];
  const previewArgv = ['tofu', 'plan', `-replace=${resource}`, '-input=false', '-no-color'];
  const commandLine = opsCommandLine(world, cwd, argv);
  return {
    id,
    title: 'rebuild VM (tofu)',
    target: node.name,
    commandLine,
    approval: {
      reason: `destroys and re-creates the VM of ${node.name}: everything on its disk is wiped`,
      mark: '⚠',
      required: async () => true,
      async current(ctx) {
        const commit = await readRepoCommit(ctx);
        return { commit, commandLine, fingerprint: bindingFingerprint(commit, argv) };
      },
      async bind(ctx) {
        const commit = await readRepoCommit(ctx);
        const plan = await captureRemote(ctx, opsTarget(world), previewArgv, {
          cwd,
          timeoutMs: ctx.cluster.timeouts.playbook,
        });
        const lines = `${plan.stdout}\n${plan.stderr}`.trim().split('\n');
        return {
          commandLine,
          targets: node.name,
          commit,
          fingerprint: bindingFingerprint(commit, argv),
          preview: {
            ran: plan.exitCode === 0,
            failure: plan.exitCode === 0 ? undefined : `tofu plan exited ${plan.exitCode}`,
            changedTasks: {},
            diffExcerpt: lines.slice(-PREVIEW_LINES).join('\n'),
          },
        };
      },
    },
    async run(ctx: StepContext) {
      const result = await ctx.shell.exec(opsTarget(world), {
        argv,
        cwd,
        timeoutMs: ctx.cluster.timeouts.playbook,
        signal: ctx.signal,
        onLine: (line) => ctx.output(line),
      });
      if (result.exitCode !== 0) {
        throw new ClusterBotError(
          'COMMAND_FAILED',
          `tofu apply -replace=${resource} exited ${result.exitCode}`,
          {
            details: { exitCode: result.exitCode },
          },
        );
      }
      return { status: 'succeeded', summary: `VM of ${node.name} re-created` };
    },
  };
}
