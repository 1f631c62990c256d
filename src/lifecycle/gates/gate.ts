import type { StepContext } from '../plan/step.js';
import type { WatchTarget } from '../ports/kube-gateway.js';

export interface GateResult {
  readonly passed: boolean;
  /** What the gate saw, in words an operator can act on. */
  readonly observed: string;
}

/** One check of a cluster's health, read from the Kubernetes API (and, where it must, the nodes over SSH). */
export interface Gate {
  readonly name: string;
  /** What to watch so a change re-evaluates the gate before the next poll. */
  readonly watches: readonly WatchTarget[];
  evaluate(ctx: StepContext): Promise<GateResult>;
}

export const CILIUM = { namespace: 'kube-system', name: 'cilium', selector: 'k8s-app=cilium' } as const;
