import type { JobRecord } from '../jobs/job-record.js';
import type { ThreadStore } from '../jobs/ports/job-thread.js';

/** Where a job is: ended (and how long it took), queued, or at a step of its plan. */
export type JobProgress =
  | { readonly kind: 'ended'; readonly outcome: string; readonly tookMs?: number | undefined }
  | { readonly kind: 'queued' }
  | { readonly kind: 'step'; readonly index: number; readonly of: number; readonly waiting: boolean };

/** A job as other answers refer to it; `record` is absent when the job is gone (or never was). */
export interface JobSummary {
  readonly id: string;
  readonly record?: JobRecord | undefined;
  readonly progress?: JobProgress | undefined;
}

export async function jobProgress(record: JobRecord, threads: ThreadStore): Promise<JobProgress> {
  if (record.outcome) {
    const tookMs = record.finishedAt ? record.finishedAt - record.createdAt : undefined;
    return { kind: 'ended', outcome: record.outcome, tookMs };
  }
  const { steps } = (await threads.load(record)).board;
  if (steps.length === 0) return { kind: 'queued' };
  const current = steps.findIndex((step) => step.status !== 'succeeded' && step.status !== 'skipped');
  return {
    kind: 'step',
    index: current < 0 ? steps.length : current + 1,
    of: steps.length,
    waiting: steps[current]?.status === 'waiting',
  };
}

export async function summariseJob(record: JobRecord, threads: ThreadStore): Promise<JobSummary> {
  return { id: record.id, record, progress: await jobProgress(record, threads) };
}
