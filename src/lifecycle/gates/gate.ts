import type { ClusterConfig } from '../../config/world-config.js';
import type { KubeGateway, WatchTarget } from '../ports/kube-gateway.js';

export interface GateResult {
  readonly passed: boolean;
  /** What the gate saw, in words an operator can act on. */
  readonly observed: string;
}

/** One check of a cluster's health, read from the Kubernetes API. */
export interface Gate {
  readonly name: string;
  /** What to watch so a change re-evaluates the gate before the next poll. */
  readonly watches: readonly WatchTarget[];
  evaluate(kube: KubeGateway, cluster: ClusterConfig): Promise<GateResult>;
}

export const CILIUM = { namespace: 'kube-system', name: 'cilium', selector: 'k8s-app=cilium' } as const;
