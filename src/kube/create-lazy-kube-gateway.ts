import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import type { LoadKubeGatewayOptions } from './load-kube-gateway.js';

/**
 * A cluster's gateway, made on first use. The kubeconfig is read then, so a cluster whose kubeconfig
 * does not exist yet (prod before its init) does not stop the bot, and using it fails with a clear
 * reason (tried again next time). The Kubernetes client is loaded then too: it costs about 80 MB of
 * memory, which a bot-only process, or a worker that has only run playbooks, never pays.
 */
export function createLazyKubeGateway(kubeconfigPath: string, options?: LoadKubeGatewayOptions): KubeGateway {
  let loading: Promise<KubeGateway> | undefined;
  const real = () => {
    loading ??= import('./load-kube-gateway.js')
      .then(({ loadKubeGateway }) => loadKubeGateway(kubeconfigPath, options))
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };
  return {
    listNodes: async () => (await real()).listNodes(),
    readDaemonSet: async (namespace, name) => (await real()).readDaemonSet(namespace, name),
    readDeployment: async (namespace, name) => (await real()).readDeployment(namespace, name),
    listDaemonSets: async (namespace) => (await real()).listDaemonSets(namespace),
    readConfigMap: async (namespace, name) => (await real()).readConfigMap(namespace, name),
    readHelmRelease: async (namespace, name) => (await real()).readHelmRelease(namespace, name),
    readGitRepository: async (namespace, name) => (await real()).readGitRepository(namespace, name),
    readKustomization: async (namespace, name) => (await real()).readKustomization(namespace, name),
    apiServer: async () => (await real()).apiServer(),
    listPods: async (query) => (await real()).listPods(query),
    listRevisionHashes: async (namespace, selector) => (await real()).listRevisionHashes(namespace, selector),
    setUnschedulable: async (node, unschedulable) => (await real()).setUnschedulable(node, unschedulable),
    evictPod: async (namespace, name) => (await real()).evictPod(namespace, name),
    deleteNode: async (name) => (await real()).deleteNode(name),
    watch(target, onChange, signal) {
      // Watching only speeds up callers that also poll: when the client cannot be made, their reads
      // report why, so there is nothing to add here.
      real().then(
        (gateway) => {
          if (!signal.aborted) gateway.watch(target, onChange, signal);
        },
        () => undefined,
      );
    },
  };
}
