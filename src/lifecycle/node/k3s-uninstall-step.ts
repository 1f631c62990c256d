import { ClusterBotError } from '../../errors.js';
import { bindingFingerprint } from '../approval-binding.js';
import type { Step, StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { findDetachedRun } from '../remote/exec-detached.js';
import { findNode, nodeTarget } from '../targets.js';
import { rootCommandLine, rootPath, rootPlace, runAsRootDetached } from './run-as-root.js';

const UNINSTALL = 'k3s-uninstall.sh';

/**
 * A bare-metal node is not rebuilt by the bot, so its old k3s (and the etcd member data under
 * /var/lib/rancher/k3s) would still be there when k3s.yml re-joins it. k3s's own uninstall script
 * removes both; a node without it (reinstalled by hand) has nothing to remove.
 */
export function k3sUninstallStep(id: string, node: string): Step {
  return {
    id,
    title: 'k3s-uninstall.sh',
    target: node,
    commandLine: `${UNINSTALL} on ${node}`,
    approval: {
      reason:
        `removes k3s and all of its data from ${node} (/var/lib/rancher/k3s, its etcd member data included), ` +
        'so it re-joins as a new member',
      mark: '⚠ if k3s is there',
      // A node reinstalled by hand has no k3s left: nothing to approve, and the step skips.
      required: (ctx) => installed(ctx, node),
      async bind(ctx) {
        const entry = findNode(ctx.cluster, node);
        const commandLine = rootCommandLine(ctx, entry, await rootPath(ctx, entry), [UNINSTALL]);
        return {
          commandLine,
          targets: node,
          fingerprint: bindingFingerprint(undefined, [node, commandLine]),
        };
      },
    },
    // A resumed step follows the uninstall it started (which removes itself at its end), never a second.
    detached: true,
    async run(ctx) {
      const entry = findNode(ctx.cluster, node);
      const path = await rootPath(ctx, entry);
      const found = await findDetachedRun(ctx, rootPlace(ctx, entry, path));
      if (found === undefined && !(await installed(ctx, node))) {
        return { status: 'skipped', summary: `${UNINSTALL} is not on ${node}: k3s is not installed there` };
      }
      const result = await runAsRootDetached(ctx, entry, [UNINSTALL], path, found);
      if (result.exitCode !== 0) {
        const how =
          result.failure === undefined ? `exited ${result.exitCode}` : `did not run: ${result.failure}`;
        throw new ClusterBotError('COMMAND_FAILED', `${UNINSTALL} on ${node} ${how}`, {
          details: { node, exitCode: result.exitCode },
        });
      }
      return { status: 'succeeded', summary: `k3s and its etcd data removed from ${node}` };
    },
  };
}

async function installed(ctx: StepContext, node: string): Promise<boolean> {
  const target = nodeTarget(ctx, findNode(ctx.cluster, node));
  return (await captureRemote(ctx, target, ['sh', '-c', `command -v ${UNINSTALL}`])).exitCode === 0;
}
