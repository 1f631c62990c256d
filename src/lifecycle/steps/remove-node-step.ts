import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { quorumProblems } from '../preconditions/quorum-problems.js';
import { findNode, nodeTarget } from '../targets.js';
import { privileged } from './node-commands.js';

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
    async run(ctx) {
      // The cluster may have changed since the job was approved: quorum is checked at the act.
      const quorum = await quorumProblems(ctx, node);
      if (quorum.length > 0) {
        throw new ClusterBotError('PRECONDITION_FAILED', `${node} was not taken away: ${quorum.join('; ')}`, {
          details: { failures: quorum },
        });
      }
      const target = nodeTarget(ctx, findNode(ctx.cluster, node));
      let stopped = 'k3s stopped';
      try {
        const result = await ctx.shell.exec(target, {
          argv: privileged(ctx.cluster, ['systemctl', 'stop', 'k3s']),
          timeoutMs: ctx.cluster.timeouts.nodeCommand,
          signal: ctx.signal,
          onLine: (line) => ctx.output(line),
        });
        if (result.exitCode !== 0) stopped = `systemctl stop k3s exited ${result.exitCode}`;
      } catch (error) {
        if (isClusterBotError(error, 'CANCELLED')) throw error;
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
