/** One entry of BullMQ's events stream for the queue, as far as the fleet count reads it. */
export interface QueueEvent {
  readonly event: string;
  readonly jobId: string;
  readonly name?: string;
}

/** A scheduled verify's BullMQ job id: `repeat:verify-<cluster>:<the time it is due>`. */
const SCHEDULED_VERIFY = /^repeat:verify-[a-z][a-z0-9-]*:(\d+)$/;

/** Each cluster's verify schedule: one verify is due every `everyMs`. */
export interface VerifySchedule {
  readonly clusters: readonly string[];
  readonly everyMs: number;
}

/**
 * The jobs a window gave the queue, and those of them that never ended: every scheduled verify due
 * within [from, to) and every command's job, against the `completed` and `failed` events. A
 * failed job is not lost (it has an outcome); one with neither event is. BullMQ adds a scheduled
 * job's next run only once the last one was taken, so a verify skipped under a backlog is never
 * added: each cluster is owed at least one per whole `everyMs` of the window, and each one short of
 * that is lost too (`<cluster>: verify never queued`).
 */
export function findLostJobs(
  events: readonly QueueEvent[],
  window: { readonly from: number; readonly to: number },
  commandJobIds: readonly string[],
  schedule: VerifySchedule,
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
  const owed = Math.floor((window.to - window.from) / schedule.everyMs);
  const neverQueued = schedule.clusters.flatMap((cluster) => {
    const queued = [...due].filter((jobId) => jobId.startsWith(`repeat:verify-${cluster}:`)).length;
    return Array.from({ length: Math.max(0, owed - queued) }, () => `${cluster}: verify never queued`);
  });
  const jobs = [...due, ...commandJobIds, ...neverQueued];
  return {
    jobs,
    lost: jobs.filter((jobId) => !ended.has(jobId)),
    failed: jobs.filter((jobId) => failed.has(jobId)),
  };
}
