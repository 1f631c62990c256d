import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { FeedEvent, FeedLine } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Lines read per round trip when reading a log's tail. */
const PAGE = 5_000;
/** About 25k lines: more than anyone reads in Slack, small enough that the upload's copies stay cheap. */
const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;
/** How often a log not yet ended is looked at again, and for how long, before it is taken as it is. */
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
      else if (fields[0] === 's') found.push({ id, text: '', stepStarts: fields[1] ?? '' });
      else found.push({ id, text: fields[1] ?? '' });
    }
    return { lines: found, ended };
  }
  async function events(jobId: string): Promise<FeedEvent[]> {
    return parseEvents(await redis.xrange(keys.feedEvents(jobId), '-', '+'));
  }
  return {
    lines,
    /**
     * The log for the thread's final upload: its last 2 MB, whole lines, so a runaway playbook cannot
     * swell the process sending it. Its worker ends the log as the job closes, just after the
     * outcome is queued; a log never ended (its worker died) is taken as it is after a while.
     * Two round trips when the log has ended: its newest page, then its length and marks together.
     */
    async uploadText(jobId: string): Promise<string> {
      const key = keys.feedLog(jobId);
      const newest = () => redis.xrevrange(key, '+', '-', 'COUNT', PAGE);
      // The end is the newest entry: the first page read says whether the log has ended.
      let entries = await newest();
      if (!isEnd(entries)) {
        const giveUpAt = Date.now() + END_PATIENCE_MS;
        const isEnded = async () => isEnd(await redis.xrevrange(key, '+', '-', 'COUNT', 1));
        while (!(await isEnded()) && Date.now() < giveUpAt) await sleep(END_POLL_MS);
        entries = await newest();
      }
      const kept: string[] = [];
      let bytes = 0;
      reading: for (;;) {
        for (const [, fields] of entries) {
          if (fields[0] === 'end') continue;
          if (fields[0] === 's') continue;
          const text = fields[1] ?? '';
          bytes += Buffer.byteLength(text) + 1;
          if (bytes > UPLOAD_LIMIT_BYTES) break reading;
          kept.push(text);
        }
        if (entries.length < PAGE) break;
        entries = await redis.xrevrange(key, `(${entries.at(-1)![0]}`, '-', 'COUNT', PAGE);
      }
      const replies = (await redis
        .multi()
        .xlen(key)
        .xrevrange(key, '+', '-', 'COUNT', 1)
        .xrange(keys.feedEvents(jobId), '-', '+')
        .exec()) as [[Error | null, number], [Error | null, StreamEntry[]], [Error | null, StreamEntry[]]];
      const failed = replies.find(([error]) => error);
      if (failed) throw failed[0];
      const [[, total], [, last], [, eventEntries]] = replies;
      const ended = isEnd(last) ? 1 : 0;
      // Each step's start is a mark in the stream, one per step-started event: not a line left out.
      const marks = parseEvents(eventEntries).filter(({ event }) => event.type === 'step-started').length;
      const leftOut = total - ended - kept.length - marks;
      const header = leftOut > 0 ? [`[first ${leftOut} lines left out]`] : [];
      return [...header, ...kept.reverse()].join('\n');
    },
    events,
  };
}

type StreamEntry = [id: string, fields: string[]];

/** Whether the newest of `entries` (newest first) is the log's end. */
const isEnd = (entries: readonly StreamEntry[]) => entries[0]?.[1][0] === 'end';

function parseEvents(entries: readonly StreamEntry[]): FeedEvent[] {
  return entries.map(([id, fields]) => {
    const { at, event } = JSON.parse(fields[1] ?? '{}') as Omit<FeedEvent, 'id'>;
    return { id, at, event };
  });
}

export type JobFeedReader = ReturnType<typeof createJobFeedReader>;
