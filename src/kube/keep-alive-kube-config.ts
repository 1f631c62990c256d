import { Agent } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

type RequestContext = Parameters<KubeConfig['applySecurityAuthentication']>[0];

/**
 * client-node 1.x gives every API request a new https.Agent, so each gate read would open a new
 * TLS connection to the API server. This keeps one keep-alive agent per kubeconfig, with the same
 * CA, client certificate and TLS options; a cluster reached through a proxy keeps the library's agent.
 */
export class KeepAliveKubeConfig extends KubeConfig {
  #agent: Agent | undefined;

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const fresh = context.getAgent();
    if (!(fresh instanceof Agent) || this.getCurrentCluster()?.proxyUrl) return;
    this.#agent ??= new Agent({ ...fresh.options, keepAlive: true });
    context.setAgent(this.#agent);
  }
}
