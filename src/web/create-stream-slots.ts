export interface StreamSlots {
  /** A slot for one more log stream of this job, or which cap refuses it. */
  take(jobId: string): 'taken' | 'process-full' | 'job-full';
  release(jobId: string): void;
  /** Log streams open now. */
  open(): number;
}

/** Counts the open log streams, of the process and of each job, against their caps. */
export function createStreamSlots(caps: {
  readonly perProcess: number;
  readonly perJob: number;
}): StreamSlots {
  const byJob = new Map<string, number>();
  let open = 0;
  return {
    take(jobId) {
      if (open >= caps.perProcess) return 'process-full';
      const ofJob = byJob.get(jobId) ?? 0;
      if (ofJob >= caps.perJob) return 'job-full';
      byJob.set(jobId, ofJob + 1);
      open += 1;
      return 'taken';
    },
    release(jobId) {
      const ofJob = byJob.get(jobId) ?? 0;
      if (ofJob <= 1) byJob.delete(jobId);
      else byJob.set(jobId, ofJob - 1);
      open -= 1;
    },
    open: () => open,
  };
}
