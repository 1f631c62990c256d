import type { ClusterService, JobLogChunk } from '../service/index.js';

export interface JobLogPollers {
  /**
   * The job's lines after `after` once there are any (or the log ended; undefined when the job is
   * gone), or 'aborted' when `signal` aborts first. Every stream of one job waiting at the same
   * place shares one read per poll.
   */
  wait(jobId: string, after: string, signal: AbortSignal): Promise<JobLogChunk | undefined | 'aborted'>;
  /** Jobs polled now, the polls made and the reads they made: for metrics, and to show streams share them. */
  stats(): { readonly pollers: number; readonly polls: number; readonly reads: number };
}

interface Waiter {
  resolve(chunk: JobLogChunk | undefined): void;
  reject(error: unknown): void;
}

/**
 * One poller per job, running while any of its streams waits for new lines: an idle page costs
 * Redis one read per job every `pollMs`, however many browsers have it open.
 */
export function createJobLogPollers(
  service: Pick<ClusterService, 'jobLog'>,
  options: { readonly pollMs: number; readonly count: number },
): JobLogPollers {
  /** By job, then by the stream id its waiters wait after. */
  const polled = new Map<string, Map<string, Set<Waiter>>>();
  let reads = 0;
  let polls = 0;
  const poll = async (jobId: string, positions: Map<string, Set<Waiter>>) => {
    polls += 1;
    for (const [after, waiters] of positions) {
      reads += 1;
      try {
        const chunk = await service.jobLog(jobId, after, options.count);
        if (chunk && chunk.lines.length === 0 && !chunk.ended) continue;
        positions.delete(after);
        for (const waiter of waiters) waiter.resolve(chunk);
      } catch (error) {
        positions.delete(after);
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    // Waiters that came while this poll read are in `positions` too: the next poll reads for them.
    if (positions.size === 0) polled.delete(jobId);
    else setTimeout(() => void poll(jobId, positions), options.pollMs);
  };
  return {
    wait(jobId, after, signal) {
      if (signal.aborted) return Promise.resolve('aborted');
      return new Promise((resolve, reject) => {
        let positions = polled.get(jobId);
        if (!positions) {
          const started = new Map<string, Set<Waiter>>();
          polled.set(jobId, started);
          setTimeout(() => void poll(jobId, started), options.pollMs);
          positions = started;
        }
        const waiters = positions.get(after) ?? new Set<Waiter>();
        positions.set(after, waiters);
        const aborted = () => {
          waiters.delete(waiter);
          if (waiters.size === 0 && positions.get(after) === waiters) positions.delete(after);
          resolve('aborted');
        };
        const waiter: Waiter = {
          resolve(chunk) {
            signal.removeEventListener('abort', aborted);
            resolve(chunk);
          },
          reject(error) {
            signal.removeEventListener('abort', aborted);
            reject(error);
          },
        };
        waiters.add(waiter);
        signal.addEventListener('abort', aborted, { once: true });
      });
    },
    stats: () => ({ pollers: polled.size, polls, reads }),
  };
}
