import { ClusterBotError } from '../../src/errors.js';
import type { KubeconfigKeeper } from '../../src/lifecycle/ports/kubeconfig-keeper.js';

/** A KubeconfigKeeper that records what it was given; `reaches` decides whether a kubeconfig works. */
export function createMemoryKubeconfigs(
  reaches: (kubeconfig: string) => number | undefined = () => undefined,
) {
  const adopted: { cluster: string; kubeconfig: string }[] = [];
  const keeper: KubeconfigKeeper = {
    async adopt(cluster, kubeconfig) {
      const nodes = reaches(kubeconfig);
      if (nodes === undefined) {
        throw new ClusterBotError(
          'KUBE_UNREACHABLE',
          `that kubeconfig does not reach ${cluster}: 401 Unauthorized`,
        );
      }
      adopted.push({ cluster, kubeconfig });
      return { keptAt: `/data/kubeconfigs/${cluster}.kubeconfig`, nodes };
    },
  };
  return { keeper, adopted };
}
