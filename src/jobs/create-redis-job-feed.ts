import type { ChainableCommander, Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import { type CommandBatch, createCommandBatch } from './command-batch.js';
import type { JobFeed } from './ports/job-feed.js';
import type { RedisKeys } from './redis-keys.js';

/** Lines a job's page keeps (the oldest go first beyond it): about 20 MB of Redis for a runaway playbook. */
export const FEED_MAX_LINES = 200_000;
const FEED_MAX_EVENTS = 20_000;
/**
 * Characters of lines waiting for Redis past which `line()` makes the writer wait: with one batch on
 * the wire and at most this much behind it, a Redis slower than the playbook holds the ssh output
 * back instead of the worker queueing it without limit (each batch used to leave unawaited, so the
 * queue was ioredis's, as long as the lag). 128 KB is about 1,500 lines: one script call or two.
 */
export const FEED_HIGH_WATER_CHARS = 128 * 1024;
/** Lines per script call: Redis is busy for a few milliseconds at most per call. */
const LINES_PER_CALL = 1_000;

/**
 * Each entry its own stream entry (its id is the page's SSE id), added inside Redis: one command per
 * batch instead of one per line, so a flood of output costs the worker almost nothing. ARGV after
 * the length is field, value pairs: `l` a line, `s` the step that begins at this point of the log.
 */
const ADD_ENTRIES = `for i = 2, #ARGV, 2 do redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', ARGV[i], ARGV[i + 1]) end`;

/**
 * The job page's feed in Redis: the log as a stream of lines, the events as another, written
 * through the worker's `CommandBatch`. An event leaves with whatever else is written in its tick (a
 * step's checkpoint: one round trip for the transition). Lines: one batch of them is on the wire
 * at a time; what is written meanwhile queues up and leaves as the next one (a burst of 100k lines
 * is a few dozen round trips, not 100k), and past FEED_HIGH_WATER_CHARS queued the writer waits for
 * Redis. Redis trouble is logged once and never fails the job: the log file on the worker's disk
 * still has every line (the page and the thread's upload, which read this feed, miss them).
 */
// Long only as a whole: the writer and its one-batch-in-flight state must share one closure.
export function createRedisJobFeed(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  now: () => number,
  logger: Logger,
  batch: CommandBatch = createCommandBatch(redis),
): JobFeed {
  /** Field, value pairs waiting for Redis: lines and, between them, where each step began. */
  let entries: string[] = [];
  let queuedChars = 0;
  let ended = false;
  /** Events sent and not yet stored (or failed). */
  const sending = new Set<Promise<void>>();
  /** The loop sending batches until nothing is queued; undefined while idle. */
  let writing: Promise<void> | undefined;
  /** Writers waiting for the queue to be taken (it was past the high water). */
  const waiting: Array<() => void> = [];
  let warned = false;

  const queued = () => entries.length > 0 || ended;
  /** Empties the queue (whatever happens to the batch next, the loop never takes it twice) into the pipeline. */
  const takeBatch = (pipeline: ChainableCommander) => {
    const batch = { entries, ended };
    entries = [];
    queuedChars = 0;
    ended = false;
    for (const resume of waiting.splice(0)) resume();
    for (let at = 0; at < batch.entries.length; at += 2 * LINES_PER_CALL) {
      pipeline.eval(
        ADD_ENTRIES,
        1,
        keys.feedLog(jobId),
        FEED_MAX_LINES,
        ...batch.entries.slice(at, at + 2 * LINES_PER_CALL),
      );
    }
    if (batch.ended) pipeline.xadd(keys.feedLog(jobId), 'MAXLEN', '~', FEED_MAX_LINES, '*', 'end', '1');
  };
  const failed = (error: unknown) => {
    if (!warned) logger.warn({ err: error, jobId }, 'job page feed: write failed (the page misses lines)');
    warned = true;
  };
  const writeQueued = async () => {
    while (queued()) await batch.send(takeBatch).then(() => undefined, failed);
    writing = undefined;
  };
  // Lines of one tick leave together (the batch takes them as it leaves); while a batch is on the wire the loop takes them.
  const startWriting = (): Promise<void> => {
    if (!writing && queued()) writing = writeQueued();
    return writing ?? Promise.resolve();
  };
  return {
    line(text) {
      entries.push('l', text);
      queuedChars += text.length;
      if (queuedChars < FEED_HIGH_WATER_CHARS) {
        void startWriting();
        return undefined;
      }
      const taken = new Promise<void>((resolve) => waiting.push(resolve));
      void startWriting();
      return taken;
    },
    event(event) {
      // In the log's own order, so the page can link a step to its first line exactly.
      if (event.type === 'step-started') {
        entries.push('s', event.stepId);
        void startWriting();
      }
      const entry = JSON.stringify({ at: now(), event });
      const sent = batch
        .send((pipeline) =>
          pipeline.xadd(keys.feedEvents(jobId), 'MAXLEN', '~', FEED_MAX_EVENTS, '*', 'e', entry),
        )
        .then(() => undefined, failed)
        .finally(() => sending.delete(sent));
      sending.add(sent);
    },
    end() {
      ended = true;
      void startWriting();
    },
    /** Resolves once everything written so far is stored (or failed). */
    async flush() {
      await Promise.all([startWriting(), ...sending]);
    },
  };
}
