import { readFileSync } from 'node:fs';
import { ClusterBotError } from '../errors.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { checkKubeconfig } from './check-kubeconfig.js';
import { checkPrivateFile } from './check-private-file.js';
import { createKubeGateway, type KubeGatewayOptions } from './create-kube-gateway.js';
import { KeepAliveKubeConfig } from './keep-alive-kube-config.js';

export interface LoadKubeGatewayOptions extends KubeGatewayOptions {
  /** The file is one the bot wrote itself (an adopted kubeconfig): it must still be its own, 0600, in a 0700 directory. */
  readonly ownFile?: boolean;
}

/**
 * Reads a kubeconfig, checks it against the allowlist (check-kubeconfig.ts) and gives client-node
 * only what passed, so nothing in the file can make it spawn a plugin or read another file. A
 * missing, broken or refused file says which and why.
 */
export function loadKubeGateway(kubeconfigPath: string, options: LoadKubeGatewayOptions = {}): KubeGateway {
  let text: string;
  try {
    if (options.ownFile) checkPrivateFile(kubeconfigPath);
    text = readFileSync(kubeconfigPath, 'utf8');
  } catch (cause) {
    throw new ClusterBotError(
      'KUBE_UNREACHABLE',
      `cannot read kubeconfig ${kubeconfigPath}: ${(cause as Error).message}`,
      { cause },
    );
  }
  const checked = checkKubeconfig(text, kubeconfigPath);
  const config = new KeepAliveKubeConfig();
  config.loadFromClusterAndUser(
    {
      name: 'cluster',
      server: checked.server,
      caData: checked.caData,
      tlsServerName: checked.tlsServerName,
      skipTLSVerify: false,
    },
    { name: 'user', ...checked.credential },
  );
  return createKubeGateway(config, options);
}
