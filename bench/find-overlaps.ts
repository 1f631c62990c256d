import type { AuditEntry } from '../src/jobs/audit-log.js';

export interface Overlap {
  readonly cluster: string;
  /** The job still holding the cluster, then the one that started beside it. */
  readonly jobs: readonly [string, string];
}

const HOLDS = /^holds ([a-z][a-z0-9-]*):/;

/**
 * Mutating jobs that ran on one cluster at once, from the audit trail alone (oldest first): a job
 * holds its cluster from its `start` entry to its `outcome`, and another job's `start` on that
 * cluster in between is an overlap, with every job holding it then (not only the latest). A job
 * resumed after an approval starts again while it still holds: that is no overlap. Not seen from
 * the audit: one job run twice at once (a stalled job re-run), which starts again as a resume does.
 */
export function findOverlaps(entries: readonly AuditEntry[]): Overlap[] {
  const holders = new Map<string, Set<string>>();
  const clusterOf = new Map<string, string>();
  const overlaps: Overlap[] = [];
  for (const entry of entries) {
    if (!entry.jobId) continue;
    if (entry.action === 'start') {
      const cluster = HOLDS.exec(entry.what)?.[1];
      if (!cluster) throw new Error(`an audit start entry without its cluster: "${entry.what}"`);
      const holding = holders.get(cluster) ?? new Set<string>();
      for (const running of holding)
        if (running !== entry.jobId) overlaps.push({ cluster, jobs: [running, entry.jobId] });
      holders.set(cluster, holding.add(entry.jobId));
      clusterOf.set(entry.jobId, cluster);
    } else if (entry.action === 'outcome') {
      const cluster = clusterOf.get(entry.jobId);
      if (cluster !== undefined) holders.get(cluster)?.delete(entry.jobId);
    }
  }
  return overlaps;
}
