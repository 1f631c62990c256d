import type { Pod } from './kube-types.js';

/** Ready condition True; with minReadySeconds 0 everywhere here, Ready is also Available. */
export function isPodReady(pod: Pod): boolean {
  return pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
