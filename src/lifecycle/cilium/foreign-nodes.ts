import type { StepContext } from '../plan/step.js';

/**
 * The API this bot reaches for the cluster must be that cluster's: a kubeconfig filed under the wrong
 * cluster (dev's file mounted as prod's) passes every check that reads the API and watches the wrong
 * agents while the right ones roll. A Node the config does not name for the cluster says so. An API
 * that does not answer is left to the reads that need it.
 */
export async function foreignNodesProblems(ctx: StepContext): Promise<string[]> {
  const nodes = await ctx.kube.listNodes().catch(() => undefined);
  if (!nodes) return [];
  const own = new Set(ctx.cluster.nodes.map((node) => node.name));
  const foreign = nodes.map((node) => node.name).filter((name) => !own.has(name));
  if (foreign.length === 0) return [];
  return [
    `the API the bot reaches for ${ctx.cluster.name} has Nodes the config does not name for it (${foreign.join(', ')}): ` +
      `its kubeconfig (clusters.${ctx.cluster.name}.kubeconfigPath) may be another cluster's`,
  ];
}
