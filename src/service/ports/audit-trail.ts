import type { AuditEntry } from '../../jobs/audit-log.js';

/** Who did what, when, on which cluster: written by the service, read back by `audit`. */
export interface AuditTrail {
  record(entry: AuditEntry): Promise<void>;
  /** The newest `count` entries that `include` keeps (all by default), newest first. */
  recent(count: number, include?: (entry: AuditEntry) => boolean): Promise<AuditEntry[]>;
}
