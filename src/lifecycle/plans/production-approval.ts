import type { ClusterConfig } from '../../config/world-config.js';
import type { PlaybookApproval } from '../playbook/playbook-step.js';

/** On a production cluster every change is approved, even one that is routine elsewhere. */
export function productionApproval(
  cluster: ClusterConfig,
  reason: string,
  mark = '⚠',
): PlaybookApproval | undefined {
  return cluster.production ? { reason: `production: ${reason}`, mark } : undefined;
}
