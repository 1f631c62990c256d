import type { Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import type { JobFeed } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Lines a job's page keeps (the oldest go first beyond it): about 20 MB of Redis for a runaway playbook. */
export const FEED_MAX_LINES = 200_000;
const FEED_MAX_EVENTS = 20_000;
/** Past this many unsent writes the writer waits for Redis: a flood of output cannot swell the worker. */
const HIGH_WATER = 5_000;

type Write = readonly [key: string, field: string, value: string, cap: number];

/**
 * The job page's feed in Redis: the log as a stream of lines, the events as another. Writes queue
 * up and leave as one pipeline per tick of the event loop (a burst of 100k lines is a few dozen round
 * trips, not 100k). Redis trouble is logged once and never fails the job: Slack and the log file
 * still carry it.
 */
export function createRedisJobFeed(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  now: () => number,
  logger: Logger,
): JobFeed {
  let queued: Write[] = [];
  let scheduled = false;
  let last: Promise<void> = Promise.resolve();
  let warned = false;
  const send = (): Promise<void> => {
    scheduled = false;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return last;
    const pipeline = redis.pipeline();
    for (const [key, field, value, cap] of batch) pipeline.xadd(key, 'MAXLEN', '~', cap, '*', field, value);
    // Pipelines on one connection run in the order they are sent, so each batch lands after the last.
    const sent = pipeline.exec().then((results) => {
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    });
    last = sent.catch((error: unknown) => {
      if (!warned) logger.warn({ err: error, jobId }, 'job page feed: write failed (the page misses lines)');
      warned = true;
    });
    return last;
  };
  const queue = (write: Write): void | Promise<void> => {
    queued.push(write);
    if (queued.length >= HIGH_WATER) return send();
    if (!scheduled) {
      scheduled = true;
      setImmediate(send);
    }
  };
  return {
    line: (text) => queue([keys.feedLog(jobId), 'l', text, FEED_MAX_LINES]),
    event(event) {
      void queue([keys.feedEvents(jobId), 'e', JSON.stringify({ at: now(), event }), FEED_MAX_EVENTS]);
    },
    end() {
      void queue([keys.feedLog(jobId), 'end', '1', FEED_MAX_LINES]);
    },
    flush: send,
  };
}
