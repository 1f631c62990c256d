/** The chart versions the lab's release history starts with: installed, then upgraded to the repo's cilium_version. */
export const INSTALLED_CHART_VERSION = '1.20.0';
export const CURRENT_CHART_VERSION = '1.20.1';

/**
 * The user-supplied values of the deployed release: what the lab repo's cilium-values.yaml.j2
 * renders for dev (`k3s_api_host` 127.0.1.11), as `helm get values` returns them.
 */
export function ciliumReleaseValues(maxUnavailable: number | string): Record<string, unknown> {
  return {
    autoDirectNodeRoutes: true,
    bpf: { masquerade: true },
    egressGateway: { enabled: true },
    gatewayAPI: { enabled: true },
    hubble: { enabled: true, relay: { enabled: true }, ui: { enabled: true } },
    ipam: { mode: 'kubernetes' },
    ipv4NativeRoutingCIDR: '10.42.0.0/16',
    k8sServiceHost: '127.0.1.11',
    k8sServicePort: 6443,
    kubeProxyReplacement: true,
    l2announcements: { enabled: true },
    operator: { replicas: 1 },
    routingMode: 'native',
    updateStrategy: { rollingUpdate: { maxUnavailable } },
  };
}
