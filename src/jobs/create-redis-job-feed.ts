import type { Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import type { JobFeed } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Lines a job's page keeps (the oldest go first beyond it): about 20 MB of Redis for a runaway playbook. */
export const FEED_MAX_LINES = 200_000;
const FEED_MAX_EVENTS = 20_000;
/** Past this many unsent lines the writer waits for Redis: a flood of output cannot swell the worker. */
const HIGH_WATER = 5_000;
/** Lines per script call: Redis is busy for a few milliseconds at most per call. */
const LINES_PER_CALL = 1_000;

/**
 * Each line its own stream entry (its id is the page's SSE id), added inside Redis: one command per
 * batch instead of one per line, so a flood of output costs the worker almost nothing.
 */
const ADD_LINES = `for i = 2, #ARGV do redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'l', ARGV[i]) end`;

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
  let lines: string[] = [];
  let events: string[] = [];
  let ended = false;
  let scheduled = false;
  let last: Promise<void> = Promise.resolve();
  let warned = false;
  const send = (): Promise<void> => {
    scheduled = false;
    if (lines.length === 0 && events.length === 0 && !ended) return last;
    const pipeline = redis.pipeline();
    for (let at = 0; at < lines.length; at += LINES_PER_CALL) {
      pipeline.eval(
        ADD_LINES,
        1,
        keys.feedLog(jobId),
        FEED_MAX_LINES,
        ...lines.slice(at, at + LINES_PER_CALL),
      );
    }
    for (const event of events)
      pipeline.xadd(keys.feedEvents(jobId), 'MAXLEN', '~', FEED_MAX_EVENTS, '*', 'e', event);
    if (ended) pipeline.xadd(keys.feedLog(jobId), 'MAXLEN', '~', FEED_MAX_LINES, '*', 'end', '1');
    lines = [];
    events = [];
    ended = false;
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
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(send);
  };
  return {
    line(text) {
      lines.push(text);
      if (lines.length >= HIGH_WATER) return send();
      schedule();
      return undefined;
    },
    event(event) {
      events.push(JSON.stringify({ at: now(), event }));
      schedule();
    },
    end() {
      ended = true;
      schedule();
    },
    flush: send,
  };
}
