import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { FeedEvent, FeedLine } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Lines read per round trip when reading a whole log. */
const PAGE = 5_000;
/** How often a log not yet ended is read again, and for how long, before what is there is taken as all. */
const END_POLL_MS = 200;
const END_PATIENCE_MS = 10_000;

/** Reads what workers wrote for the job page (create-redis-job-feed.ts), from any process. */
export function createJobFeedReader(redis: Redis, keys: RedisKeys) {
  /** Up to `count` lines after the stream id `after` ('0' for the first); `ended` once the log is complete. */
  async function lines(
    jobId: string,
    after: string,
    count: number,
  ): Promise<{ lines: FeedLine[]; ended: boolean }> {
    const start = after === '0' ? '-' : `(${after}`;
    const entries = await redis.xrange(keys.feedLog(jobId), start, '+', 'COUNT', count);
    const found: FeedLine[] = [];
    let ended = false;
    for (const [id, fields] of entries) {
      if (fields[0] === 'end') ended = true;
      else found.push({ id, text: fields[1] ?? '' });
    }
    return { lines: found, ended };
  }
  return {
    lines,
    /**
     * The whole log as text (the thread's final upload). Its worker ends it as the job closes, just
     * after the outcome is queued; a log never ended (its worker died) is taken as it is after a while.
     */
    async text(jobId: string): Promise<string> {
      const text: string[] = [];
      const giveUpAt = Date.now() + END_PATIENCE_MS;
      for (let after = '0'; ; ) {
        const page = await lines(jobId, after, PAGE);
        for (const line of page.lines) text.push(line.text);
        after = page.lines.at(-1)?.id ?? after;
        if (page.ended || (page.lines.length === 0 && Date.now() > giveUpAt)) return text.join('\n');
        if (page.lines.length === 0) await sleep(END_POLL_MS);
      }
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
