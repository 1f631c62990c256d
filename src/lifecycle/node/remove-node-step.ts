import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { quorumProblems } from '../preconditions/quorum-problems.js';
import { findNode } from '../targets.js';
import { rootPath, runAsRootDetached } from './run-as-root.js';

/** systemctl's exit status for a unit it does not know: no k3s is installed, none runs. */
const UNIT_NOT_LOADED = 5;

/**
 * Stops k3s on the node first (a running k3s would re-register the Node), then deletes the Node
 * object: k3s then removes the node's etcd member, so the rebuilt node can join again.
 */
export function removeNodeStep(id: string, node: string): Step {
  return {
    id,
    title: 'stop k3s + delete Node',
    target: node,
    commandLine: `systemctl stop k3s (on ${node}, if it answers); delete Node ${node}`,
    detached: true,
    async run(ctx) {
      // The cluster may have changed since the job was approved: quorum is checked at the act.
      const quorum = await quorumProblems(ctx, node);
      if (quorum.length > 0) {
        throw new ClusterBotError('PRECONDITION_FAILED', `${node} was not taken away: ${quorum.join('; ')}`, {
          details: { failures: quorum },
        });
      }
      const entry = findNode(ctx.cluster, node);
      let stopped = 'k3s stopped';
      try {
        const result = await runAsRootDetached(
          ctx,
          entry,
          ['systemctl', 'stop', 'k3s'],
          await rootPath(ctx, entry),
        );
        // A node that answers and still runs k3s would re-register the Node and contend for its etcd
        // member: its Node is not deleted, and it stays cordoned.
        const notStopped =
          result.failure !== undefined
            ? `systemctl stop k3s did not run (${result.failure})`
            : result.exitCode === 0 || result.exitCode === UNIT_NOT_LOADED
              ? undefined
              : `systemctl stop k3s exited ${result.exitCode}`;
        if (notStopped !== undefined) {
          throw new ClusterBotError(
            'COMMAND_FAILED',
            `${node} answered but ${notStopped}: its Node was not deleted (a running k3s would register it again); it stays cordoned. Stop k3s on it, then run the reprovision again`,
            { details: { node } },
          );
        }
        if (result.exitCode === UNIT_NOT_LOADED) stopped = 'no k3s unit on it (nothing to stop)';
      } catch (error) {
        // Only a node that does not answer at all is deleted without the stop (it is down).
        if (!isClusterBotError(error, 'SSH_UNREACHABLE') && !isClusterBotError(error, 'SSH_CONNECTION_LOST'))
          throw error;
        stopped = `${node} did not answer (${(error as Error).message}); deleting its Node anyway`;
      }
      await ctx.progress(stopped);
      if (!(await ctx.kube.listNodes()).some((state) => state.name === node)) {
        await ctx.note(`Node ${node} is not registered (an earlier run deleted it?): nothing to delete`);
        return { status: 'succeeded', summary: `${stopped}; Node ${node} was already absent` };
      }
      await ctx.kube.deleteNode(node);
      return {
        status: 'succeeded',
        summary: `${stopped}; Node ${node} deleted (k3s removes its etcd member)`,
      };
    },
  };
}
