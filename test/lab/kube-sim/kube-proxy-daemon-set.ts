import { buildDaemonSet } from './build-daemon-set.js';
import { K3S_VERSION } from './build-node.js';
import type { DaemonSet } from './kube-types.js';

/** A kube-proxy DaemonSet: what must NOT exist on these clusters (Cilium replaces kube-proxy). */
export function buildKubeProxyDaemonSet(created: Date): DaemonSet {
  const labels = { 'k8s-app': 'kube-proxy' };
  return buildDaemonSet({
    name: 'kube-proxy',
    namespace: 'kube-system',
    labels,
    selector: labels,
    maxUnavailable: 1,
    created,
    template: {
      metadata: { labels },
      spec: {
        containers: [
          {
            name: 'kube-proxy',
            image: `registry.k8s.io/kube-proxy:${K3S_VERSION.replace(/\+.*/, '')}`,
            command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf'],
            securityContext: { privileged: true },
          },
        ],
        hostNetwork: true,
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'kube-proxy',
        tolerations: [{ operator: 'Exists' }],
      },
    },
  });
}
