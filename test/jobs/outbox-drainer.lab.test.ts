import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadReporter } from '../../src/bot/create-thread-reporter.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import { createOutboxDrainer } from '../../src/jobs/create-outbox-drainer.js';
import { createRedisThreadOutbox } from '../../src/jobs/create-redis-thread-outbox.js';
import type { ThreadOutbox } from '../../src/jobs/ports/thread-outbox.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { createCleanupStack } from '../support/cleanup-stack.js';
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

/** A Slack that accepts calls and records them; `hangAfter` calls in, it never answers again (the process froze, then died). */
function slackPoster(accepted: Accepted[], options: { hangAfter?: number; delayMs?: number } = {}) {
  let calls = 0;
  const arrive = async (entry: Accepted) => {
    calls += 1;
    if (options.hangAfter !== undefined && calls > options.hangAfter) await new Promise(() => undefined);
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

/** One process's drainer, on its own Redis connection (disconnecting it is that process dying). */
function startProcess(prefix: string, poster: SlackPoster, leaseMs = LEASE_MS) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const store = createRedisThreadOutbox(redis, redisKeys(prefix));
  const drainer = createOutboxDrainer({
    store,
    send: createThreadOpSender({ poster, messages: store.messages, logger, readLog: async () => 'the log' }),
    logger,
    leaseMs,
    scanMs: 100,
  });
  cleanup.push(async () => {
    await drainer.stop(Date.now());
    redis.disconnect();
  });
  return { redis, drainer };
}

/** A job's thread as a worker writes it: the root, NOTES replies, the final board and report. */
async function reportJob(outbox: ThreadOutbox, jobId: string) {
  const reporter = createThreadReporter({
    outbox,
    logger,
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
    const first = startProcess(prefix, slackPoster(accepted, { delayMs: 150 }), 60_000);
    await reportJob(first.drainer.outbox, 'job-1');
    await waitFor('two messages sent', () => accepted.length === 2);
    // The third on the wire (Slack takes 150 ms to answer) as the grace period ends.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await first.drainer.stop(Date.now());

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
});
