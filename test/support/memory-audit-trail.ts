import type { AuditEntry } from '../../src/jobs/audit-log.js';
import type { AuditTrail } from '../../src/service/ports/audit-trail.js';

/** The audit trail in memory, newest first. */
export function createMemoryAuditTrail() {
  const entries: AuditEntry[] = [];
  const trail: AuditTrail = {
    async record(entry) {
      entries.unshift(entry);
    },
    async recent(count, include = () => true) {
      return entries.filter(include).slice(0, count);
    },
  };
  return { trail };
}
