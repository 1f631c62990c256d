import type { JobRecord } from '../../src/jobs/job-record.js';
import { RECENT_KEPT } from '../../src/jobs/job-record.js';
import type { JobRecordStore } from '../../src/service/ports/job-records.js';

/** The jobs' records in memory, newest first as Redis's recent list keeps them; the test writes them. */
export function createMemoryJobRecords() {
  const records = new Map<string, JobRecord>();
  const recentIds: string[] = [];
  const cancels = new Map<string, string>();
  const store: JobRecordStore = {
    get: async (id) => records.get(id),
    async recent(count) {
      return recentIds
        .slice(0, Math.min(count, RECENT_KEPT))
        .flatMap((id) => (records.has(id) ? [records.get(id)!] : []));
    },
    async requestCancel(jobId, userId) {
      cancels.set(jobId, userId);
    },
  };
  return {
    store,
    /** A new job's record, as the queue writes it: the newest job. */
    add(record: JobRecord) {
      records.set(record.id, record);
      recentIds.unshift(record.id);
      recentIds.splice(RECENT_KEPT);
    },
    /** A record rewritten by its worker (an ending), in its place among the recent. */
    rewrite(record: JobRecord) {
      records.set(record.id, record);
    },
    /** A record its retention dropped: the recent list still names it. */
    retire(id: string) {
      records.delete(id);
    },
    cancelledBy: (jobId: string) => cancels.get(jobId),
  };
}
