import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { adoptOpsHostKubeconfig } from './ops-host-kubeconfig.js';

/**
 * After k3s.yml the cluster must be reachable for everything that follows. When the kubeconfig in
 * use is missing or rejected (a prod init, a cluster founded again from scratch), the one the k3s
 * role just wrote on the ops host, `.cache/<cluster_kubeconfig_name>`, is fetched, proved to reach
 * the cluster, and used from then on. It fetches it itself, whatever an earlier step of the run
 * found there before k3s.yml wrote it.
 */
export function clusterKubeconfigStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'cluster kubeconfig',
    target: `${cluster}: the kubeconfig in use, else the k3s role's .cache/<cluster_kubeconfig_name>`,
    fetchesKubeconfig: true,
    async run(ctx) {
      let failure: string;
      try {
        const nodes = await ctx.kube.listNodes();
        return {
          status: 'succeeded',
          summary: `the kubeconfig in use reaches ${cluster} (${nodes.length} nodes)`,
        };
      } catch (error) {
        failure = (error as Error).message;
      }
      await ctx.progress(`the kubeconfig in use does not reach ${cluster}: ${failure}`);
      const fetched = await adoptOpsHostKubeconfig(ctx);
      if (fetched.kind !== 'adopted') {
        const why =
          fetched.kind === 'refused' && fetched.relative
            ? `, and neither does ${fetched.relative}: ${fetched.why}`
            : `; ${fetched.why}`;
        throw new ClusterBotError(
          'KUBE_UNREACHABLE',
          `the kubeconfig in use does not reach ${cluster} (${failure})${why}`,
          {
            details: {
              cluster,
              ...(fetched.kind === 'refused' && fetched.relative && { file: fetched.relative }),
            },
          },
        );
      }
      return {
        status: 'succeeded',
        summary:
          `now using ${fetched.relative} from the ops host (k3s.yml wrote it; it reaches ${cluster}: ${fetched.nodes} nodes), ` +
          `kept at ${fetched.keptAt} and preferred from now on`,
      };
    },
  };
}
