import { KubeConfig } from '@kubernetes/client-node';
import { ClusterBotError } from '../errors.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { createKubeGateway } from './create-kube-gateway.js';

/**
 * Reads a cluster's kubeconfig on first use, so a cluster whose kubeconfig does not exist yet
 * (prod before its init) does not stop the bot; using it fails with a clear reason instead.
 */
export function createLazyKubeGateway(kubeconfigPath: string): KubeGateway {
  let gateway: KubeGateway | undefined;
  const get = (): KubeGateway => {
    if (gateway) return gateway;
    const config = new KubeConfig();
    try {
      config.loadFromFile(kubeconfigPath);
    } catch (cause) {
      throw new ClusterBotError(
        'KUBE_UNREACHABLE',
        `cannot read kubeconfig ${kubeconfigPath}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
    gateway = createKubeGateway(config);
    return gateway;
  };
  return new Proxy({} as KubeGateway, {
    get: (_target, property: keyof KubeGateway) => {
      return (...args: unknown[]) => (get()[property] as (...a: unknown[]) => unknown)(...args);
    },
  });
}
