import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoundTripCounter, type RoundTripCounter } from '../../bench/count-round-trips.js';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import { type ThreadOp, tailName } from '../../src/bot/thread/thread-op.js';
import { createNumberedAppends } from '../../src/delivery/create-numbered-appends.js';
import { createOutboxDrainer } from '../../src/delivery/create-outbox-drainer.js';
import { createRedisThreadOutbox } from '../../src/delivery/create-redis-thread-outbox.js';
import type { ThreadMessages, ThreadOutbox } from '../../src/delivery/thread-outbox.js';
import { createCommandBatch } from '../../src/jobs/command-batch.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createCleanupStack } from '../support/cleanup-stack.js';
import { labMs } from '../support/lab-time.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { waitFor } from '../support/wait-for.js';

const logger = createLogger({ level: 'silent', redact: createRedactor() });
const LEASE_MS = 600;
const NOTES = 8;

/** What Slack accepted, in order, across every process of the test. */
interface Accepted {
  readonly text: string;
  readonly threadTs?: string | undefined;
}

/** A call the test holds on the wire: `arrived` once it is, answered when the test calls `release`. */
function callLatch() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { arrived: false, released, release: () => release() };
}

interface SlackOptions {
  /** `hangAfter` calls in, it never answers again (the process froze, then died). */
  readonly hangAfter?: number;
  readonly delayMs?: number;
  /** The call with this number (from 1) waits for `latch`. */
  readonly holdCall?: { readonly at: number; readonly latch: ReturnType<typeof callLatch> };
}

/** A Slack that accepts calls and records them. */
function slackPoster(accepted: Accepted[], options: SlackOptions = {}) {
  let calls = 0;
  const arrive = async (entry: Accepted) => {
    calls += 1;
    if (options.hangAfter !== undefined && calls > options.hangAfter) await new Promise(() => undefined);
    if (options.holdCall?.at === calls) {
      options.holdCall.latch.arrived = true;
      await options.holdCall.latch.released;
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    accepted.push(entry);
  };
  const poster: SlackPoster = {
    async post(message) {
      await arrive({ text: message.text, threadTs: message.threadTs });
      return `100.${accepted.length}`;
    },
    update: (message) => arrive({ text: `edit ${message.ts}: ${message.text}` }),
    upload: (file) => arrive({ text: file.comment ?? '', threadTs: file.threadTs }),
    permalink: (channel, ts) => `https://lab.slack.invalid/archives/${channel}/p${ts}`,
  };
  return poster;
}

const cleanup = createCleanupStack();
afterEach(() => cleanup.run());

interface ProcessOptions {
  readonly leaseMs?: number;
  readonly deliveredWithinMs?: number;
  /** Keeping a message's ts fails this many times first (Redis trouble right after Slack took the message). */
  readonly failKeeping?: number;
  /** Reading a message's ts fails on this read (from 1), as on a dropped connection. */
  readonly failReadingAt?: number;
  /** This many claims lose their reply (the lease and the read were made, the connection dropped). */
  readonly loseClaims?: number;
  /** Keeping a message's ts never returns (the process dies between Slack's answer and the write). */
  readonly hangKeeping?: boolean;
  /** Default 100 ms. */
  readonly scanMs?: number;
  /** Counts this process's Redis round trips. */
  readonly trips?: RoundTripCounter;
  /** Where this process's warnings go, one JSON line each. */
  readonly warnings?: string[];
}

/** One process's drainer, on its own Redis connection (disconnecting it is that process dying). */
function startProcess(prefix: string, poster: SlackPoster, options: ProcessOptions = {}) {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const redis = options.trips ? options.trips.watch(connection) : connection;
  const store = createRedisThreadOutbox(redis, redisKeys(prefix), 60_000, createCommandBatch(redis));
  const { warnings } = options;
  const log = warnings
    ? createLogger({
        level: 'warn',
        redact: createRedactor(),
        destination: { write: (line) => warnings.push(line) },
      })
    : logger;
  let failKeeping = options.failKeeping ?? 0;
  let reads = 0;
  /** The ts each recording of a message's ts came back with. */
  const recorded: string[] = [];
  /** The jobs whose outbox this process let go of (its release), in order. */
  const released: string[] = [];
  const messages: ThreadMessages = {
    get: async (jobId, name) => {
      if (++reads === options.failReadingAt) throw new Error('Connection is closed.');
      return store.messages.get(jobId, name);
    },
    record: async (jobId, name, ts) => {
      if (failKeeping-- > 0) throw new Error("READONLY You can't write against a read only replica.");
      if (options.hangKeeping) await new Promise(() => undefined);
      const kept = await store.messages.record(jobId, name, ts);
      recorded.push(kept);
      return kept;
    },
  };
  let loseClaims = options.loseClaims ?? 0;
  const claim: typeof store.claim = async (...args) => {
    const claimed = await store.claim(...args);
    if (loseClaims-- > 0) throw new Error('Connection is closed.');
    return claimed;
  };
  const release: typeof store.release = async (jobId, owner) => {
    await store.release(jobId, owner);
    released.push(jobId);
  };
  const drainer = createOutboxDrainer({
    store: { ...store, claim, release, messages },
    send: createThreadOpSender({ poster, logger: log, readLog: async () => 'the log' }),
    logger: log,
    leaseMs: options.leaseMs ?? LEASE_MS,
    scanMs: options.scanMs ?? 100,
    retryMs: 20,
    deliveredWithinMs: options.deliveredWithinMs,
  });
  cleanup.push(async () => {
    await drainer.stop(Date.now(), Date.now() + 5_000);
    redis.disconnect();
  });
  return { redis, store, drainer, recorded, released };
}

/** The outbox store on a connection of the test's own, under a fresh prefix removed after the test. */
function openStore() {
  const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
  cleanup.push(removeKeys);
  const redis = new Redis(REDIS_URL);
  cleanup.push(async () => redis.disconnect());
  const keys = redisKeys(prefix);
  return {
    prefix,
    redis,
    keys,
    store: createRedisThreadOutbox(redis, keys, 60_000, createCommandBatch(redis)),
  };
}

/** A job's thread as a worker writes it: the root, NOTES replies, the final board and report. */
async function reportJob(outbox: ThreadOutbox, jobId: string) {
  const reporter = createThreadReporter({
    delivery: createNumberedAppends(outbox, { logger, retryMs: 20 }),
    appendLog: () => undefined,
    thread: {
      jobId,
      channel: 'C0OPS',
      alertsChannel: 'C0ALERTS',
      cluster: 'dev',
      threadTs: undefined,
      opened: false,
      board: { title: 'verify dev', jobNumber: 1, requestedBy: 'U0ALICE', steps: [] },
    },
  });
  await reporter.emit({ type: 'plan-started', steps: [], resumed: false });
  for (let i = 1; i <= NOTES; i++) await reporter.emit({ type: 'note', text: `note ${i}` });
  await reporter.emit({ type: 'plan-finished', outcome: 'succeeded', summary: 'all done' });
  await reporter.flush();
}

const expectedThread = [
  expect.stringContaining('verify dev'),
  ...Array.from({ length: NOTES }, (_, i) => `ℹ️ note ${i + 1}`),
  expect.stringMatching(/^edit 100\.1: .*verify dev/),
  '✅ job #1 succeeded: all done',
];

describe('thread outbox in Redis', () => {
  it('a process that dies mid-send leaves its outbox to another, which sends the rest exactly once, in order', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    // The first process sends the root and three replies; its fifth call never comes back, and it dies.
    const first = startProcess(prefix, slackPoster(accepted, { hangAfter: 4 }));
    await reportJob(first.drainer.outbox, 'job-1');
    await waitFor('the first process stuck on its fifth call', () => accepted.length === 4);
    first.redis.disconnect();

    const second = startProcess(prefix, slackPoster(accepted));
    await waitFor('the thread complete', () => accepted.length >= expectedThread.length, {
      timeoutMs: 10_000,
    });
    await second.drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
    // Every reply went under the one root message.
    expect(accepted.slice(1).every((call) => call.threadTs === '100.1' || call.text.startsWith('edit'))).toBe(
      true,
    );
  });

  it('a process stopping lets go of its outbox after its call on the wire: another sends the rest at once, each message once', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    // A lease that would outlast the test: only letting go hands the outbox over.
    const third = callLatch();
    const first = startProcess(prefix, slackPoster(accepted, { holdCall: { at: 3, latch: third } }), {
      leaseMs: 60_000,
    });
    await reportJob(first.drainer.outbox, 'job-1');
    // The third on the wire as the grace period ends; Slack answers it during the last moment
    // (a timer after the grace period's, so after the process stopped taking new operations).
    await waitFor('the third message on the wire', () => third.arrived);
    const stopping = first.drainer.stop(Date.now(), Date.now() + 5_000);
    setTimeout(third.release, 100);
    await stopping;
    expect(accepted).toHaveLength(3);

    const second = startProcess(prefix, slackPoster(accepted));
    await waitFor('the thread complete', () => accepted.length >= expectedThread.length, {
      timeoutMs: 5_000,
    });
    await second.drainer.outbox.delivered('job-1');
    // Whatever the first process still had on the wire has landed by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
  });

  it('two live processes scanning the same outboxes send each message once, in order', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    const processes = [
      startProcess(prefix, slackPoster(accepted, { delayMs: 20 })),
      startProcess(prefix, slackPoster(accepted, { delayMs: 20 })),
    ];
    // The job's messages are appended by one process; the other finds them in its scan.
    await reportJob(processes[0]!.drainer.outbox, 'job-1');
    await processes[1]!.drainer.outbox.delivered('job-1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
  });

  it.each([
    { failing: 1, what: "the root message's" },
    { failing: 3, what: "a later note's" },
  ])(
    'an append Redis failed ($what) is resent before the ones after it: the thread arrives whole, in order',
    async ({ failing }) => {
      const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
      cleanup.push(removeKeys);
      const accepted: Accepted[] = [];
      const { drainer } = startProcess(prefix, slackPoster(accepted));
      let appends = 0;
      // One append fails, as on OOM or READONLY, its error coming back only after the job's later
      // appends have reached Redis.
      const flaky: ThreadOutbox = {
        append: (...args) =>
          ++appends === failing
            ? new Promise<void>((_, reject) =>
                setTimeout(() => reject(new Error('OOM command not allowed')), 100),
              )
            : drainer.outbox.append(...args),
        delivered: drainer.outbox.delivered,
      };
      await reportJob(flaky, 'job-1');
      await drainer.outbox.delivered('job-1');
      expect(accepted.map((call) => call.text)).toEqual(expectedThread);
    },
  );

  it('an append that runs twice (a retry after its reply was lost) is stored once', async () => {
    const { store } = openStore();
    await store.append('job-1', ['a', 'b'], { stream: 's1', first: 0 });
    await store.append('job-1', ['a', 'b'], { stream: 's1', first: 0 });
    await store.append('job-1', ['b', 'c'], { stream: 's1', first: 1 });
    // One whose predecessor never landed is refused, not stored out of order.
    await expect(store.append('job-1', ['e'], { stream: 's1', first: 4 })).rejects.toThrow(/gap/);
    expect(await store.peek('job-1', 10)).toEqual(['a', 'b', 'c']);
  });

  it("Redis failing to keep the root message's ts, then to read it: the root is posted once and every reply lands under it", async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    const { drainer } = startProcess(prefix, slackPoster(accepted), { failKeeping: 1, failReadingAt: 4 });
    await reportJob(drainer.outbox, 'job-1');
    await drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
    expect(accepted.slice(1).every((call) => call.threadTs === '100.1' || call.text.startsWith('edit'))).toBe(
      true,
    );
  });

  it('a Slack call that never returns: delivered() gives up at its deadline, and another process takes the outbox over', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    // Alive (its Redis connection up, its lease renewable), but its second call hangs for good.
    const first = startProcess(prefix, slackPoster(accepted, { hangAfter: 1 }), { deliveredWithinMs: 500 });
    await reportJob(first.drainer.outbox, 'job-1');
    const started = Date.now();
    await first.drainer.outbox.delivered('job-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(accepted).toHaveLength(1);

    const second = startProcess(prefix, slackPoster(accepted));
    await waitFor('the thread complete', () => accepted.length >= expectedThread.length, {
      timeoutMs: 10_000,
    });
    await second.drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
  });

  it("a message's ts kept after its job's keys expired still expires", async () => {
    const { redis, keys, store } = openStore();
    await store.messages.record('job-gone', 'root', '100.1');
    expect(await redis.pttl(keys.threadMessages('job-gone'))).toBeGreaterThan(0);
  });

  it('delivers a thread in one Redis round trip per message plus one for the claim and one per ts kept: the claim and each take read what comes next', async () => {
    const accepted: Accepted[] = [];
    // The whole thread is in the outbox before the sending process starts, as for a job whose worker died.
    const { prefix, redis, store } = openStore();
    await reportJob({ append: store.append, delivered: async () => undefined }, 'job-1');
    const queued = (await store.peek('job-1', 100)).length;
    // Its only scan is the one at its start; its lease outlasts the test, so it is never renewed.
    const trips = createRoundTripCounter();
    startProcess(prefix, slackPoster(accepted), { trips, scanMs: 60_000, leaseMs: 60_000 });
    // Watched from another connection, so only the delivery's own round trips are counted.
    await waitFor(
      'the outbox emptied and let go',
      async () =>
        (await redis.exists(redisKeys(prefix).outboxLease('job-1'))) === 0 &&
        (await store.size('job-1')) === 0,
    );
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
    const delivery = trips.sent().filter(([command]) => !command?.startsWith('smembers'));
    // The claim (with the first operations and the thread's ts), a take per message (with the next
    // operations; the last lets the emptied outbox go), the root's ts kept: its ts is read no more.
    expect(delivery).toHaveLength(1 + queued + 1);
  });

  it('a ts another process kept while it held the outbox is read at the next claim: its message is edited, not posted again', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    const { store, drainer } = startProcess(prefix, slackPoster(accepted));
    const board = { title: 'verify dev', jobNumber: 1, requestedBy: 'U0ALICE', steps: [] };
    const op = (sent: ThreadOp) => JSON.stringify(sent);
    const tail = (stepId: string, text: string) => op({ kind: 'tail', channel: 'C0OPS', stepId, text });
    await drainer.outbox.append(
      'job-1',
      [op({ kind: 'root', channel: 'C0OPS', board }), tail('1-preflight', 'ok')],
      { stream: 's1', first: 0 },
    );
    await drainer.outbox.delivered('job-1');
    // Meanwhile another process held the outbox, posted the next step's output and kept its ts.
    await store.messages.record('job-1', tailName('2-verify'), '100.77');
    await drainer.outbox.append('job-1', [tail('2-verify', '3/3 nodes Ready')], { stream: 's1', first: 2 });
    await drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual([
      expect.stringContaining('verify dev'),
      'ok',
      'edit 100.77: 3/3 nodes Ready',
    ]);
  });

  it('a process that dies between Slack taking a message and keeping its ts: the next holder posts that message again, once, and the rest under it', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    const first = startProcess(prefix, slackPoster(accepted), { hangKeeping: true });
    await reportJob(first.drainer.outbox, 'job-1');
    await waitFor('the root message taken by Slack', () => accepted.length === 1);
    first.redis.disconnect();

    // Once the first one's lease lapses, the second takes the outbox over; delivered: all of it sent.
    await startProcess(prefix, slackPoster(accepted)).drainer.outbox.delivered('job-1');
    const [root, ...rest] = expectedThread;
    expect(accepted.map((call) => call.text)).toEqual([
      root,
      root,
      ...rest.slice(0, -2),
      expect.stringMatching(/^edit 100\.2: .*verify dev/),
      rest.at(-1),
    ]);
    expect(accepted.slice(2).every((call) => call.threadTs === '100.2' || call.text.startsWith('edit'))).toBe(
      true,
    );
  });

  it("a claim whose reply is lost (the lease and the thread's ts read, the connection dropped): the same process claims it again at its next scan, without waiting for its own lease to lapse; the thread whole, in order", async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    // A lease that outlasts the test: the thread goes out by delivered()'s deadline only if the
    // claim is made again over it.
    const { drainer } = startProcess(prefix, slackPoster(accepted), {
      loseClaims: 1,
      leaseMs: 600_000,
      deliveredWithinMs: labMs(10_000),
    });
    await reportJob(drainer.outbox, 'job-1');
    await drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
    expect(new Set(accepted.slice(1, -2).map((call) => call.threadTs))).toEqual(new Set(['100.1']));
  });

  it("a claim resent by the same process (its reply lost) claims again over its own lease; another process's is still refused", async () => {
    const { store } = openStore();
    await store.append('job-1', ['a', 'b'], { stream: 's1', first: 0 });
    await store.claim('job-1', 'worker-1', 60_000, 20);
    expect(await store.claim('job-1', 'worker-1', 60_000, 20)).toMatchObject({ ops: ['a', 'b'], first: 0 });
    expect(await store.claim('job-1', 'bot-1', 60_000, 20)).toBeUndefined();
  });

  it('a take resent after its reply was lost (ioredis resends it on reconnect) takes nothing more: the next message stays, and is sent', async () => {
    const { store } = openStore();
    await store.append('job-1', ['root', 'gate alert', 'final report'], { stream: 's1', first: 0 });
    const claimed = await store.claim('job-1', 'worker-1', 60_000, 20);
    expect(claimed?.first).toBe(0);
    // 'root' was sent; its take runs twice, as when the first one's reply never came back.
    expect(await store.take('job-1', 'worker-1', 60_000, 20, 0)).toEqual(['gate alert', 'final report']);
    expect(await store.take('job-1', 'worker-1', 60_000, 20, 0)).toEqual(['gate alert', 'final report']);
    expect(await store.take('job-1', 'worker-1', 60_000, 20, 1)).toEqual(['final report']);
    // A later holder counts on from where this one stopped.
    await store.release('job-1', 'worker-1');
    expect(await store.claim('job-1', 'bot-1', 60_000, 20)).toMatchObject({
      ops: ['final report'],
      first: 2,
    });
  });

  it("a holder whose post hung past its lease, then returned: the ts its successor recorded stays, and the approval's and the progress's messages share one thread", async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    // The first process's root post hangs (past STUCK_LEASES lease periods) and comes back late.
    const late = callLatch();
    const first = startProcess(prefix, slackPoster(accepted, { holdCall: { at: 1, latch: late } }));
    await reportJob(first.drainer.outbox, 'job-1');
    await waitFor('the first root post on the wire', () => late.arrived);
    const second = startProcess(prefix, slackPoster(accepted));
    await waitFor('the second process posted the root', () => accepted.length >= 1, { timeoutMs: 10_000 });
    late.release();
    await waitFor('the first process recorded its root', () => first.recorded.length === 1);
    await second.drainer.outbox.delivered('job-1');
    await waitFor('the thread complete', () => accepted.length >= expectedThread.length + 1);
    // The second's root (100.1) is what Redis keeps, so what reads it (the approval's post, a
    // click's answer) goes under the same root as the thread's progress; the late one yields to it.
    expect(first.recorded).toEqual(['100.1']);
    expect(await second.store.messages.get('job-1', 'root')).toBe('100.1');
    const replies = accepted.filter((call) => call.threadTs !== undefined);
    expect(replies.map((call) => call.text)).toEqual([
      ...Array.from({ length: NOTES }, (_, i) => `ℹ️ note ${i + 1}`),
      '✅ job #1 succeeded: all done',
    ]);
    expect(new Set(replies.map((call) => call.threadTs))).toEqual(new Set(['100.1']));
  });

  it('a stuck call that comes back after all: the lease it gave up is let go at once, not left to lapse, and the thread is sent whole', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('outbox-drainer');
    cleanup.push(removeKeys);
    const accepted: Accepted[] = [];
    const stuck = callLatch();
    const warnings: string[] = [];
    const { drainer, released } = startProcess(
      prefix,
      slackPoster(accepted, { holdCall: { at: 2, latch: stuck } }),
      { warnings },
    );
    await reportJob(drainer.outbox, 'job-1');
    await waitFor(
      'the call given up as stuck',
      () => warnings.some((line) => line.includes('a call is stuck')),
      {
        timeoutMs: 10_000,
      },
    );
    stuck.release();
    await waitFor('the outbox let go after the call came back', () => released.includes('job-1'));
    await drainer.outbox.delivered('job-1');
    expect(accepted.map((call) => call.text)).toEqual(expectedThread);
  });
});
