import type { AlertState } from '../../jobs/compare-gate-alerts.js';
import type { FluxSuspended, LastVerify } from '../cluster-service.js';

/** What the workers and scheduled watches noted of a cluster, for `status`, the Home and /metrics. */
export interface ClusterNotes {
  lastVerify(cluster: string): Promise<LastVerify | undefined>;
  fluxSuspended(cluster: string): Promise<FluxSuspended | undefined>;
  /** The scheduled verify's and the drift watch's alerts not yet seen clear. */
  alertStates(cluster: string): Promise<AlertState[]>;
}
