import { join } from 'node:path';
import type { WorldConfig } from '../config/world-config.js';
import { ClusterBotError } from '../errors.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import type { KubeconfigKeeper } from '../lifecycle/ports/kubeconfig-keeper.js';
import { adoptKubeconfig } from './adopt-kubeconfig.js';
import type { KubeGatewayOptions } from './create-kube-gateway.js';
import { createLazyKubeGateway } from './create-lazy-kube-gateway.js';

export interface ClusterKubes extends KubeconfigKeeper {
  /** The cluster's gateway: over the kubeconfig adopted for it, when there is one, else the configured one. */
  kubeFor(cluster: string): KubeGateway;
}

interface Current {
  readonly gateway: KubeGateway;
  /** The adopted file the gateway was made from; undefined: made from the configured path. */
  readonly adopted: string | undefined;
}

/**
 * The Kubernetes gateways of every cluster. The configured kubeconfigPath is often a mounted secret
 * (read-only, and stale once k3s.yml re-founded the cluster), so an adopted kubeconfig is kept under
 * DATA_DIR/kubeconfigs/<cluster>.kubeconfig (0600, in a 0700 directory) and preferred from then on,
 * by this process only: a file found there that this process did not adopt (another pod's, or one
 * left from before a restart) is never used; such a process fetches and proves its own.
 */
export function createClusterKubes(
  world: WorldConfig,
  dataDir: string,
  options?: KubeGatewayOptions,
): ClusterKubes {
  const dir = join(dataDir, 'kubeconfigs');
  const current = new Map<string, Current>();
  const adoptedHere = new Map<string, string>();

  const gatewayOf = (cluster: string): KubeGateway => {
    const adopted = adoptedHere.get(cluster);
    const known = current.get(cluster);
    if (known && known.adopted === adopted) return known.gateway;
    const configured = world.clusters[cluster]?.kubeconfigPath;
    if (configured === undefined) throw new ClusterBotError('TARGET_UNKNOWN', `unknown cluster ${cluster}`);
    const gateway = createLazyKubeGateway(adopted ?? configured, {
      ...options,
      ownFile: adopted !== undefined,
    });
    current.set(cluster, { gateway, adopted });
    return gateway;
  };

  const switching = (cluster: string): KubeGateway => ({
    listNodes: () => gatewayOf(cluster).listNodes(),
    readDaemonSet: (namespace, name) => gatewayOf(cluster).readDaemonSet(namespace, name),
    readDeployment: (namespace, name) => gatewayOf(cluster).readDeployment(namespace, name),
    listDaemonSets: (namespace) => gatewayOf(cluster).listDaemonSets(namespace),
    readConfigMap: (namespace, name) => gatewayOf(cluster).readConfigMap(namespace, name),
    readHelmRelease: (namespace, name) => gatewayOf(cluster).readHelmRelease(namespace, name),
    readGitRepository: (namespace, name) => gatewayOf(cluster).readGitRepository(namespace, name),
    readKustomization: (namespace, name) => gatewayOf(cluster).readKustomization(namespace, name),
    apiServer: () => gatewayOf(cluster).apiServer(),
    listPods: (query) => gatewayOf(cluster).listPods(query),
    listRevisionHashes: (namespace, selector) => gatewayOf(cluster).listRevisionHashes(namespace, selector),
    setUnschedulable: (node, unschedulable) => gatewayOf(cluster).setUnschedulable(node, unschedulable),
    evictPod: (namespace, name) => gatewayOf(cluster).evictPod(namespace, name),
    deleteNode: (name) => gatewayOf(cluster).deleteNode(name),
    watch: (target, onChange, signal) => gatewayOf(cluster).watch(target, onChange, signal),
  });
  const gateways = new Map<string, KubeGateway>();

  return {
    kubeFor(cluster) {
      let gateway = gateways.get(cluster);
      if (!gateway) {
        gateway = switching(cluster);
        gateways.set(cluster, gateway);
      }
      return gateway;
    },
    async adopt(cluster, kubeconfig, namedHosts) {
      const adopted = await adoptKubeconfig(world, dir, cluster, kubeconfig, namedHosts, options);
      // Made again on next use, from the file just proved.
      adoptedHere.set(cluster, adopted.keptAt);
      current.delete(cluster);
      return adopted;
    },
  };
}
