import type { FeedEvent, FeedLine } from '../../src/jobs/ports/job-feed.js';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import type { JobFeedReader } from '../../src/service/ports/job-feed-reader.js';

/**
 * What workers wrote for the job page, in memory, as Redis's log stream holds it: lines and then
 * an end entry, ids growing (`1`, `2`, …); the end counts toward a read's `count` as it does there.
 */
export function createMemoryJobFeedReader() {
  const logs = new Map<string, (FeedLine | { readonly id: string; readonly end: true })[]>();
  const events = new Map<string, FeedEvent[]>();
  let nextId = 1;
  const logOf = (jobId: string) => logs.get(jobId) ?? logs.set(jobId, []).get(jobId)!;
  const reader: JobFeedReader = {
    async lines(jobId, after, count) {
      const chunk = logOf(jobId)
        .filter((entry) => Number(entry.id) > Number(after))
        .slice(0, count);
      return {
        lines: chunk.flatMap((entry) => ('end' in entry ? [] : [entry])),
        ended: chunk.some((entry) => 'end' in entry),
      };
    },
    events: async (jobId) => [...(events.get(jobId) ?? [])],
  };
  return {
    reader,
    line(jobId: string, text: string) {
      logOf(jobId).push({ id: String(nextId++), text });
    },
    event(jobId: string, event: LifecycleEvent, at: number) {
      events.set(jobId, [...(events.get(jobId) ?? []), { id: String(nextId++), at, event }]);
    },
    end(jobId: string) {
      logOf(jobId).push({ id: String(nextId++), end: true });
    },
  };
}
