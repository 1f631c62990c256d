import { isPodReady } from './is-pod-ready.js';
import type { Condition, Pod, PodDisruptionBudget } from './kube-types.js';
import { matchesLabelSelector } from './label-selector.js';
import { scaledValue } from './scaled-value.js';

export interface BudgetCount {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
}

/** The disruption controller's arithmetic for one PDB over the pods it selects. */
export function countBudget(pdb: PodDisruptionBudget, pods: Pod[]): BudgetCount {
  const selected = pods.filter(
    (p) =>
      p.metadata.namespace === pdb.metadata.namespace &&
      matchesLabelSelector(pdb.spec.selector, p.metadata.labels),
  );
  const expectedPods = selected.length;
  const currentHealthy = selected.filter(isPodReady).length;
  const desiredHealthy =
    pdb.spec.minAvailable !== undefined
      ? scaledValue(pdb.spec.minAvailable, expectedPods, true, 0)
      : Math.max(0, expectedPods - scaledValue(pdb.spec.maxUnavailable, expectedPods, true, 0));
  return {
    expectedPods,
    currentHealthy,
    desiredHealthy,
    disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
  };
}

export function pdbStatus(pdb: PodDisruptionBudget, count: BudgetCount, at: string): Record<string, unknown> {
  const allowed = count.disruptionsAllowed > 0;
  const previous = (pdb.status.conditions as Condition[] | undefined)?.find(
    (c) => c.type === 'DisruptionAllowed',
  );
  const status = allowed ? 'True' : 'False';
  return {
    conditions: [
      {
        type: 'DisruptionAllowed',
        status,
        reason: allowed ? 'SufficientPods' : 'InsufficientPods',
        message: '',
        observedGeneration: pdb.metadata.generation,
        lastTransitionTime: previous?.status === status ? previous.lastTransitionTime : at,
      },
    ],
    currentHealthy: count.currentHealthy,
    desiredHealthy: count.desiredHealthy,
    disruptionsAllowed: count.disruptionsAllowed,
    expectedPods: count.expectedPods,
    observedGeneration: pdb.metadata.generation,
  };
}
