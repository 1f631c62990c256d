import type { JobRecord } from '../../jobs/job-record.js';

/** The jobs' records as the service reads them, and the one mark it sets on a job: its cancel. */
export interface JobRecordStore {
  get(id: string): Promise<JobRecord | undefined>;
  /** The newest `count` jobs (at most RECENT_KEPT), newest first; records already retired are left out. */
  recent(count: number): Promise<JobRecord[]>;
  /** Marks the job cancelled by `userId`: its worker notices within a second (or on waking, if parked). */
  requestCancel(jobId: string, userId: string): Promise<void>;
}
