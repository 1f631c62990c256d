import type { EnqueueRequest, EnqueueResult } from '../../jobs/create-job-queue.js';

/** The queue as the service uses it: a command's job recorded and queued, and a parked job woken. */
export interface JobSubmitter {
  enqueue(request: EnqueueRequest): Promise<EnqueueResult>;
  /** Wakes a job parked or delayed (a decided approval, a cancel) so its worker acts now. */
  promote(jobId: string): Promise<void>;
}
