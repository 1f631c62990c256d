import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemoteOrFail } from './capture-remote.js';
import { parseInventory } from './parse-inventory.js';
import { repoPaths } from './repo-paths.js';

/**
 * Taking a server away is only safe when every other server is Ready: two of three servers gone
 * loses etcd quorum and the cluster with it.
 */
export function reprovisionPreconditionsStep(id: string, node: string): Step {
  return {
    id,
    title: 'reprovision preconditions',
    target: `${node}: inventory, other servers Ready`,
    async run(ctx) {
      const problems: string[] = [];
      const inventory = parseInventory(
        await captureRemoteOrFail(ctx, opsTarget(ctx.world), ['cat', '--', repoPaths(ctx.world).inventory]),
      );
      if (!inventory.active.has(node)) {
        problems.push(
          inventory.commented.has(node)
            ? `${node} is commented out of the inventory`
            : `${node} is not in the inventory on the ops host`,
        );
      }
      const nodes = await ctx.kube.listNodes();
      const servers = ctx.cluster.nodes.filter(
        (entry) => entry.roles.includes('server') && entry.name !== node,
      );
      for (const server of servers) {
        const state = nodes.find((candidate) => candidate.name === server.name);
        if (!state)
          problems.push(`${server.name} is not registered: taking ${node} away could lose etcd quorum`);
        else if (!state.ready) {
          problems.push(`${server.name} is NotReady: taking ${node} away as well would lose etcd quorum`);
        }
      }
      if (problems.length > 0) {
        throw new ClusterBotError('PRECONDITION_FAILED', problems.join('; '), { details: { problems } });
      }
      return {
        status: 'succeeded',
        summary: `${node} in the inventory; ${servers.length} other servers Ready`,
      };
    },
  };
}
