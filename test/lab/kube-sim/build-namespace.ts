import { randomUUID } from 'node:crypto';
import type { KubeObject } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';

export function buildNamespace(name: string, created: Date): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: rfc3339(created),
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}
