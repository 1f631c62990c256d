import type { NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { execOnOpsDetached, findDetachedRun, opsPlace } from '../remote/exec-detached.js';
import { opsCommandLine } from '../remote/ops-command-line.js';
import { tofuRebuildApproval } from './tofu-rebuild-approval.js';
import { tofuReplacePlan } from './tofu-replace-plan.js';

/**
 * Re-creates the node's VM from a plan saved for this job: `tofu plan -replace=<resource> -out=<plan>`
 * is what the approval shows (its summary and every resource it touches, read from
 * `tofu show -json`), and `tofu apply <plan>` applies exactly that plan, nothing re-planned. A plan
 * touching anything but the node's resource is refused, before the approval and again before applying.
 */
export function tofuRebuildStep(world: WorldConfig, id: string, node: NodeEntry, resource: string): Step {
  const plan = tofuReplacePlan(world, resource);
  const { cwd, placeholder } = plan;
  return {
    id,
    title: 'rebuild VM (tofu)',
    target: node.name,
    commandLine: `${opsCommandLine(world, cwd, plan.planArgv(placeholder))}; then tofu apply ${placeholder}`,
    approval: tofuRebuildApproval(world, node, plan),
    // An apply cut off halfway leaves a VM half destroyed: it outlives the worker and is followed.
    detached: true,
    async run(ctx: StepContext) {
      const planFile = plan.fileOf(ctx);
      const found = await findDetachedRun(ctx, opsPlace(ctx));
      // An apply already started was checked before it started (and has consumed its plan file).
      if (!found) await plan.show(ctx, planFile);
      try {
        const result = await execOnOpsDetached(
          ctx,
          'tofu apply',
          {
            argv: plan.applyArgv(planFile),
            cwd,
            timeoutMs: ctx.cluster.timeouts.playbook,
            signal: ctx.signal,
            onLine: (line) => ctx.output(line),
          },
          found,
        );
        if (result.exitCode !== 0) {
          throw new ClusterBotError('COMMAND_FAILED', `tofu apply ${planFile} exited ${result.exitCode}`, {
            details: { exitCode: result.exitCode },
          });
        }
      } finally {
        await plan.remove(ctx, planFile).catch(() => undefined);
      }
      return { status: 'succeeded', summary: `VM of ${node.name} re-created from the approved plan` };
    },
  };
}
