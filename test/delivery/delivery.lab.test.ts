import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createDelivery } from '../../src/delivery/create-delivery.js';
import type { ThreadOpSender } from '../../src/delivery/delivery.js';
import { type CommandBatch, createCommandBatch } from '../../src/jobs/command-batch.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createCleanupStack } from '../support/cleanup-stack.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { waitFor } from '../support/wait-for.js';

// The contract of src/delivery's surface (delivery.ts, create-delivery.ts), on a real Redis: what
// is appended is sent in order, each operation once, by whichever process drains, and delivered()
// resolves once it has been.

const logger = createLogger({ level: 'silent', redact: createRedactor() });
const cleanup = createCleanupStack();
afterEach(() => cleanup.run());

/** What the edge's sender was handed, in order, across every process of the test. */
type Sent = { jobId: string; op: string }[];

function recordingSender(sent: Sent): ThreadOpSender {
  return async (jobId, op) => {
    // A call takes a moment, as Slack's do: appends made meanwhile queue behind it.
    await new Promise((resolve) => setImmediate(resolve));
    sent.push({ jobId, op });
  };
}

/** One process's delivery on its own Redis connection, under the test's prefix. */
function openDelivery(prefix: string, batchOf: (redis: Redis) => CommandBatch = createCommandBatch) {
  const redis = new Redis(REDIS_URL);
  const delivery = createDelivery({
    redis,
    keys: redisKeys(prefix),
    batch: batchOf(redis),
    retentionMs: 60_000,
    logger,
    appendRetryMs: 20,
    drain: { leaseMs: 600, scanMs: 100, retryMs: 20 },
  });
  const drainers: { stop(deadline: number, giveUpAt: number): Promise<void> }[] = [];
  cleanup.push(async () => {
    for (const drainer of drainers) await drainer.stop(Date.now(), Date.now() + 5_000);
    redis.disconnect();
  });
  return {
    redis,
    delivery,
    startDrainer(send: ThreadOpSender) {
      drainers.push(delivery.startDrainer(send));
    },
  };
}

function testPrefix(): string {
  const { prefix, cleanup: removeKeys } = uniquePrefix('delivery');
  cleanup.push(removeKeys);
  return prefix;
}

/** A point the test holds a Redis reply at until it calls `release`. */
function latch() {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release: () => release() };
}

/**
 * A process's batches, counting the sends Redis answered; with `holdAt`, that send (from 1) waits
 * for `hold` before it leaves, `held` once it does.
 */
function watchedBatches(holdAt?: number, hold?: ReturnType<typeof latch>) {
  let sends = 0;
  const watched = {
    answered: 0,
    held: false,
    batchOf(redis: Redis): CommandBatch {
      const batch = createCommandBatch(redis);
      return {
        async send(fill) {
          if (++sends === holdAt) {
            watched.held = true;
            await hold?.done;
          }
          try {
            return await batch.send(fill);
          } finally {
            watched.answered += 1;
          }
        },
      };
    },
  };
  return watched;
}

const opsOf = (sent: Sent, jobId: string) =>
  sent.filter((entry) => entry.jobId === jobId).map(({ op }) => op);

describe('delivery (append, delivered, startDrainer)', () => {
  it("sends each job's operations in the order appended, each once, and delivered() resolves once they are sent", async () => {
    const sent: Sent = [];
    const process = openDelivery(testPrefix());
    process.startDrainer(recordingSender(sent));
    const { delivery } = process;
    const jobA = delivery.thread('job-a');
    const jobB = delivery.thread('job-b');
    jobA.append(['a1', 'a2']);
    jobB.append(['b1']);
    jobA.append(['a3']);
    await new Promise((resolve) => setImmediate(resolve));
    jobB.append(['b2', 'b3']);
    jobA.append(['a4'], () => ({ threadTs: undefined }));

    await Promise.all([delivery.delivered('job-a'), delivery.delivered('job-b')]);
    expect(opsOf(sent, 'job-a')).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(opsOf(sent, 'job-b')).toEqual(['b1', 'b2', 'b3']);
  });

  it("a process without a drainer appends; another process's drainer sends, and delivered() sees it from either", async () => {
    const prefix = testPrefix();
    const sent: Sent = [];
    const worker = openDelivery(prefix);
    const thread = worker.delivery.thread('job-1');
    thread.append(['root', 'reply']);
    thread.append(['final']);
    await thread.appended();
    expect(sent).toEqual([]);

    const bot = openDelivery(prefix);
    bot.startDrainer(recordingSender(sent));
    await worker.delivery.delivered('job-1');
    await bot.delivery.delivered('job-1');
    expect(opsOf(sent, 'job-1')).toEqual(['root', 'reply', 'final']);
  });

  it('an append Redis refused, answered after a later one went in, is resent before it: the thread arrives whole, in order', async () => {
    const prefix = testPrefix();
    let sends = 0;
    let firstAnswered = false;
    const secondRefused = latch();
    // The second of two appends fails (OOM, READONLY), its error coming back only once the first was
    // acknowledged and a third made after it.
    const failingSecond = (redis: Redis): CommandBatch => {
      const batch = createCommandBatch(redis);
      return {
        async send(fill) {
          const call = ++sends;
          if (call === 2) {
            await secondRefused.done;
            throw new Error('OOM command not allowed when used memory > maxmemory');
          }
          const replies = await batch.send(fill);
          if (call === 1) firstAnswered = true;
          return replies;
        },
      };
    };
    const worker = openDelivery(prefix, failingSecond);
    const thread = worker.delivery.thread('job-1');
    thread.append(['root']);
    thread.append(['note 1']);
    await waitFor('the first append answered', () => firstAnswered);
    await new Promise((resolve) => setImmediate(resolve));
    thread.append(['note 2']);
    await new Promise((resolve) => setImmediate(resolve));
    secondRefused.release();

    const sent: Sent = [];
    worker.startDrainer(recordingSender(sent));
    await thread.appended();
    await worker.delivery.delivered('job-1');
    expect(opsOf(sent, 'job-1')).toEqual(['root', 'note 1', 'note 2']);
  });
  // Another process: the first run's worker was cut off from Redis and taken over, its queued
  // append landing once it is back. The same process: a stalled job handed to it again.
  it.each([
    ['another process', false],
    ['the same process', true],
  ])(
    "a taken-over run's late append never displaces the live run's writer (%s): every message of the live run goes, in order, none given up",
    async (_where, sameProcess) => {
      const prefix = testPrefix();
      const sent: Sent = [];
      // The live run's second append stays on the wire until the first run's late one has landed.
      const liveSecondHeld = latch();
      const live = watchedBatches(sameProcess ? 3 : 2, liveSecondHeld);
      const liveProcess = openDelivery(prefix, live.batchOf);
      const first = sameProcess ? live : watchedBatches();
      const firstProcess = sameProcess ? liveProcess : openDelivery(prefix, first.batchOf);

      const firstRun = firstProcess.delivery.thread('job-1');
      firstRun.append(['root (first run)', 'step 1 (first run)']);
      await firstRun.appended();

      liveProcess.startDrainer(recordingSender(sent));
      const liveRun = liveProcess.delivery.thread('job-1');
      // Both in flight at once: the live run's stream is mid-way when the late append lands.
      liveRun.append(['step 1 (live run)']);
      liveRun.append(['step 2 (live run)']);
      const liveFirstAnswered = sameProcess ? 2 : 1;
      await waitFor("the live run's first append answered", () => live.answered >= liveFirstAnswered);
      await waitFor("the live run's second append on the wire", () => live.held);

      const answeredBefore = first.answered;
      firstRun.append(['stale tail edit (first run)']);
      await waitFor("the first run's late append answered", () => first.answered > answeredBefore);
      liveSecondHeld.release();
      liveRun.append(['report (live run)']);

      await liveRun.appended();
      await liveProcess.delivery.delivered('job-1');
      expect(opsOf(sent, 'job-1')).toEqual([
        'root (first run)',
        'step 1 (first run)',
        'step 1 (live run)',
        'step 2 (live run)',
        'report (live run)',
      ]);
    },
  );
});
