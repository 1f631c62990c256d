/** One entry of BullMQ's events stream for the queue, as far as the fleet count reads it. */
export interface QueueEvent {
  readonly event: string;
  readonly jobId: string;
  readonly name?: string;
}

/** A scheduled verify's BullMQ job id: `repeat:verify-<cluster>:<the time it is due>`. */
const SCHEDULED_VERIFY = /^repeat:verify-[a-z][a-z0-9-]*:(\d+)$/;

/**
 * The jobs a window gave the queue, and those of them that never ended: every scheduled verify due
 * within [from, to) and every command's job, against the `completed` and `failed` events. A
 * failed job is not lost (it has an outcome); one with neither event is.
 */
export function findLostJobs(
  events: readonly QueueEvent[],
  window: { readonly from: number; readonly to: number },
  commandJobIds: readonly string[],
): { jobs: string[]; lost: string[]; failed: string[] } {
  const due = new Set<string>();
  const ended = new Set<string>();
  const failed = new Set<string>();
  for (const { event, jobId } of events) {
    if (event === 'added') {
      const at = Number(SCHEDULED_VERIFY.exec(jobId)?.[1] ?? Number.NaN);
      if (at >= window.from && at < window.to) due.add(jobId);
    } else if (event === 'completed') ended.add(jobId);
    else if (event === 'failed') {
      ended.add(jobId);
      failed.add(jobId);
    }
  }
  const jobs = [...due, ...commandJobIds];
  return {
    jobs,
    lost: jobs.filter((jobId) => !ended.has(jobId)),
    failed: jobs.filter((jobId) => failed.has(jobId)),
  };
}
