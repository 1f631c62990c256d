import { ClusterBotError } from '../errors.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { createKubeGateway, type KubeGatewayOptions } from './create-kube-gateway.js';
import { KeepAliveKubeConfig } from './keep-alive-kube-config.js';

/** Reads a kubeconfig and returns the gateway over it; a missing or broken file says which and why. */
export function loadKubeGateway(kubeconfigPath: string, options?: KubeGatewayOptions): KubeGateway {
  const config = new KeepAliveKubeConfig();
  try {
    config.loadFromFile(kubeconfigPath);
  } catch (cause) {
    throw new ClusterBotError(
      'KUBE_UNREACHABLE',
      `cannot read kubeconfig ${kubeconfigPath}: ${(cause as Error).message}`,
      { cause },
    );
  }
  return createKubeGateway(config, options);
}
