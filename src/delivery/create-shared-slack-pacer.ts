import { setImmediate as afterPendingIo, setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { Logger } from '../log/create-logger.js';
import { createSlackPacer, slackBucket } from './create-slack-pacer.js';
import type { SlackPacer } from './delivery.js';
import type { Pace, RateBudget } from './rate-budget.js';

/** How long the budget may take to answer (real time) before this call is paced locally instead. */
const BUDGET_DEADLINE_MS = 1_000;
/** How long after a failure the local pacer is used before Redis is asked again. */
const LOCAL_FOR_MS = 5_000;

/**
 * The Slack pacer of every process, over one budget kept in Redis: three workers posting into one
 * channel take their turns from the same bucket, so together they stay inside Slack's limits.
 *
 * If Redis does not answer (down, failing over: the connection queues commands until it is back),
 * the call is paced by this process's own pacer instead, for a few seconds before Redis is asked
 * again: posting unpaced would draw 429s, and waiting for Redis would hold every thread. Only
 * this process's share is counted meanwhile, so a fleet may then draw a few 429s, which the Web API
 * client waits out.
 */
export function createSharedSlackPacer(
  budget: RateBudget,
  clock: Pick<Clock, 'now' | 'sleep'>,
  logger: Logger,
  deadlineMs = BUDGET_DEADLINE_MS,
): SlackPacer {
  const local = createSlackPacer(clock);
  let localUntil = 0;

  // The deadline is real time, whatever clock paces the calls: it bounds a network round trip.
  // When it expires, the I/O already waiting is let in first: on a busy host the process itself can
  // stall past the deadline, and Node runs expired timers before the reply that arrived meanwhile;
  // pacing locally then would post beside the other processes' share and draw 429s.
  async function sharedWait(name: string, pace: Pace) {
    const deadline = new AbortController();
    const late = sleep(deadlineMs, undefined, { signal: deadline.signal }).then(async () => {
      await afterPendingIo();
      throw new Error(`no answer within ${deadlineMs} ms`);
    });
    late.catch(() => undefined);
    try {
      return await Promise.race([budget.take(name, pace), late]);
    } finally {
      deadline.abort();
    }
  }

  return {
    async take(method, channel) {
      const bucket = slackBucket(method, channel);
      if (!bucket) return;
      if (clock.now() < localUntil) return local.take(method, channel);
      let waitMs: number;
      try {
        waitMs = await sharedWait(bucket.name, bucket.pace);
      } catch (error) {
        localUntil = clock.now() + LOCAL_FOR_MS;
        logger.warn(
          { err: error, method, localForMs: LOCAL_FOR_MS },
          'Slack budget in Redis unreachable: pacing this process alone',
        );
        return local.take(method, channel);
      }
      if (waitMs > 0) await clock.sleep(waitMs);
    },
  };
}
