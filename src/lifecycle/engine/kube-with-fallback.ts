import { isClusterBotError } from '../../errors.js';
import type { KubeGateway } from '../ports/kube-gateway.js';

/**
 * A failure that another kubeconfig could mend: the API does not answer through this one (or it
 * cannot be read or is refused by the allowlist), or the API refused its credentials (401). Any
 * other answer (403, 404, a conflict) came from the cluster through working credentials.
 */
export function isKubeconfigFailure(error: unknown): boolean {
  return (
    isClusterBotError(error, 'KUBE_UNREACHABLE') ||
    (isClusterBotError(error, 'KUBE_REQUEST_FAILED') && error.details.status === 401)
  );
}

/**
 * The gateway, with a way out when the kubeconfig in use fails: such a call asks `reach` (which may
 * switch the gateway to another, proved, kubeconfig) and is made once more only if it did. Watches
 * go through unchanged: their callers also poll, and a poll that fails takes this way.
 */
export function kubeWithFallback(
  kube: KubeGateway,
  reach: (failure: Error) => Promise<boolean>,
): KubeGateway {
  const mended =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (!isKubeconfigFailure(error) || !(await reach(error as Error))) throw error;
        return call(...args);
      }
    };
  return {
    listNodes: mended(() => kube.listNodes()),
    readDaemonSet: mended((namespace: string, name: string) => kube.readDaemonSet(namespace, name)),
    readDeployment: mended((namespace: string, name: string) => kube.readDeployment(namespace, name)),
    listDaemonSets: mended((namespace: string) => kube.listDaemonSets(namespace)),
    readConfigMap: mended((namespace: string, name: string) => kube.readConfigMap(namespace, name)),
    readHelmRelease: mended((namespace: string, name: string) => kube.readHelmRelease(namespace, name)),
    readGitRepository: mended((namespace: string, name: string) => kube.readGitRepository(namespace, name)),
    readKustomization: mended((namespace: string, name: string) => kube.readKustomization(namespace, name)),
    apiServer: mended(() => kube.apiServer()),
    listPods: mended((query: Parameters<KubeGateway['listPods']>[0]) => kube.listPods(query)),
    listRevisionHashes: mended((namespace: string, selector: string) =>
      kube.listRevisionHashes(namespace, selector),
    ),
    setUnschedulable: mended((node: string, unschedulable: boolean) =>
      kube.setUnschedulable(node, unschedulable),
    ),
    evictPod: mended((namespace: string, name: string) => kube.evictPod(namespace, name)),
    deleteNode: mended((name: string) => kube.deleteNode(name)),
    watch: (target, onChange, signal) => kube.watch(target, onChange, signal),
  };
}
