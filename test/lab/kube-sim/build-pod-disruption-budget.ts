import { randomUUID } from 'node:crypto';
import type { Labels, PodDisruptionBudget } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';

export function buildPodDisruptionBudget(
  name: string,
  namespace: string,
  matchLabels: Labels,
  budget: { minAvailable: number | string } | { maxUnavailable: number | string },
  created: Date,
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name,
      namespace,
      uid: randomUUID(),
      resourceVersion: '',
      generation: 1,
      creationTimestamp: rfc3339(created),
    },
    spec: { ...budget, selector: { matchLabels } },
    status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 },
  };
}
