import type { NodeEntry } from '../../config/world-config.js';
import type { StepContext } from '../plan/step.js';

/**
 * Where the etcd snapshot before `node` goes away is taken: the first Ready etcd server other than
 * `node` (the snapshot is written to the disk of the server that takes it).
 */
export async function snapshotServer(ctx: StepContext, node: string): Promise<NodeEntry | undefined> {
  const live = await ctx.kube.listNodes();
  return ctx.cluster.nodes.find(
    (entry) =>
      entry.name !== node && live.some((state) => state.name === entry.name && state.ready && state.etcd),
  );
}
