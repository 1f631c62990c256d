import { KubeConfig } from '@kubernetes/client-node';

type RequestContext = Parameters<KubeConfig['applySecurityAuthentication']>[0];
type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/**
 * client-node gives every API request a new undici Agent, so each gate read would open a new TLS
 * connection to the API server. This keeps the first one per kubeconfig (its CA, client certificate
 * and TLS options never change for a loaded kubeconfig) and its connections alive; a cluster reached
 * through a proxy keeps the library's dispatcher.
 */
export class KeepAliveKubeConfig extends KubeConfig {
  #dispatcher: Dispatcher | undefined;

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const fresh = context.getDispatcher();
    if (fresh === undefined || this.getCurrentCluster()?.proxyUrl) return;
    this.#dispatcher ??= fresh;
    context.setDispatcher(this.#dispatcher);
  }
}
