import type { Redis } from 'ioredis';
import type { FeedEvent, FeedLine } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Reads what workers wrote for the job page (create-redis-job-feed.ts), from any process. */
export function createJobFeedReader(redis: Redis, keys: RedisKeys) {
  return {
    /** Up to `count` lines after the stream id `after` ('0' for the first); `ended` once the log is complete. */
    async lines(jobId: string, after: string, count: number): Promise<{ lines: FeedLine[]; ended: boolean }> {
      const start = after === '0' ? '-' : `(${after}`;
      const entries = await redis.xrange(keys.feedLog(jobId), start, '+', 'COUNT', count);
      const lines: FeedLine[] = [];
      let ended = false;
      for (const [id, fields] of entries) {
        if (fields[0] === 'end') ended = true;
        else lines.push({ id, text: fields[1] ?? '' });
      }
      return { lines, ended };
    },
    async events(jobId: string): Promise<FeedEvent[]> {
      const entries = await redis.xrange(keys.feedEvents(jobId), '-', '+');
      return entries.map(([id, fields]) => {
        const { at, event } = JSON.parse(fields[1] ?? '{}') as Omit<FeedEvent, 'id'>;
        return { id, at, event };
      });
    },
  };
}

export type JobFeedReader = ReturnType<typeof createJobFeedReader>;
