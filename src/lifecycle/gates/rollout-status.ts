import type { DaemonSetState } from '../ports/kube-gateway.js';

/** The rule `kubectl rollout status` applies to a DaemonSet. */
export function isRolledOut(ds: DaemonSetState): boolean {
  return (
    ds.desired > 0 &&
    ds.observedGeneration >= ds.generation &&
    ds.updated >= ds.desired &&
    ds.available >= ds.desired
  );
}

export function describeDaemonSet(ds: DaemonSetState): string {
  const generation =
    ds.observedGeneration >= ds.generation
      ? ''
      : `, generation ${ds.generation} not yet observed (at ${ds.observedGeneration})`;
  return `${ds.updated}/${ds.desired} updated, ${ds.available}/${ds.desired} available${generation}`;
}
