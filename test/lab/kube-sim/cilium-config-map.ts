import { randomUUID } from 'node:crypto';
import type { KubeObject } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';

/**
 * The ConfigMap the Cilium chart renders and the agents read their settings from (part of it):
 * `kube-proxy-replacement` is the live answer to "does Cilium replace kube-proxy here".
 */
export function buildCiliumConfigMap(created: Date): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'cilium-config',
      namespace: 'kube-system',
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: rfc3339(created),
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'meta.helm.sh/release-name': 'cilium', 'meta.helm.sh/release-namespace': 'kube-system' },
    },
    data: {
      'cluster-name': 'default',
      'enable-ipv4': 'true',
      'enable-hubble': 'true',
      'enable-l2-announcements': 'true',
      'enable-gateway-api': 'true',
      'enable-ipv4-egress-gateway': 'true',
      ipam: 'kubernetes',
      'routing-mode': 'native',
      'auto-direct-node-routes': 'true',
      'ipv4-native-routing-cidr': '10.42.0.0/16',
      'enable-bpf-masquerade': 'true',
      'kube-proxy-replacement': 'true',
      'k8s-service-host': '127.0.1.11',
      'k8s-service-port': '6443',
    },
  };
}
