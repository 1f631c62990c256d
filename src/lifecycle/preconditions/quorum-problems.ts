import type { StepContext } from '../plan/step.js';

/**
 * Taking a server away is only safe while every other etcd member is Ready: two of three servers
 * gone loses quorum, and the cluster with it. Read live, so it holds right before the act.
 */
export async function quorumProblems(ctx: StepContext, node: string): Promise<string[]> {
  const live = await ctx.kube.listNodes();
  const problems: string[] = [];
  const others = new Set([
    ...ctx.cluster.nodes.filter((e) => e.roles.includes('server')).map((e) => e.name),
    ...live.filter((state) => state.etcd).map((state) => state.name),
  ]);
  others.delete(node);
  for (const name of others) {
    const state = live.find((candidate) => candidate.name === name);
    if (!state) problems.push(`${name} is not registered: taking ${node} away could lose etcd quorum`);
    else if (!state.ready)
      problems.push(`${name} is NotReady: taking ${node} away as well would lose etcd quorum`);
  }
  return problems;
}
