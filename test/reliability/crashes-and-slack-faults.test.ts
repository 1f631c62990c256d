import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/jobs/create-job-queue.js';
import { createJobRecords } from '../../src/jobs/job-record.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { labMs } from '../support/lab-time.js';
import { REDIS_URL } from '../support/redis-prefix.js';
import type { BotProcess } from '../support/start-bot-process.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const started = (worker: BotProcess) => (worker.output().match(/"msg":"job started"/g) ?? []).length;

describe('crashes and Slack failing', { timeout: labMs(180_000) }, () => {
  it('bursts of 5xx from Slack during a job: the outcome is unaffected, the final status and the log still arrive', async () => {
    lab = await startSlackLab({ labVars: { lab_output_lines: 5_000 } });
    const { slack, driver } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const root = await slack.waitFor(
      () => slack.messages('C0OPS').find((m) => m.text.includes('*packages k3s-dev-1*')),
      {
        timeoutMs: 30_000,
      },
    );
    for (const method of ['chat.postMessage', 'chat.update', 'files.completeUploadExternal']) {
      slack.failNext(method, { status: 503, count: 3 });
    }
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 90_000,
    });
    await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts), { timeoutMs: 60_000 });
    expect(slack.calls.filter((c) => c.status >= 500).length).toBeGreaterThan(0);
  });

  it('a worker SIGKILLed while its job waits for approval loses nothing: the approval lets another worker run it', async () => {
    lab = await startSlackLab({ workers: 2 });
    const { slack, driver, workers } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await slack.waitFor(
      () => slack.allMessages('C0OPS').find((m) => m.text.includes('approval needed for cilium.yml')),
      { timeoutMs: 60_000 },
    );
    // Killed once the job is parked (delayed) for its approval, not in the moment before: that case
    // is the stalled-job recovery the e2e SIGKILL test covers.
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAME, { connection, prefix: lab.processEnv.REDIS_PREFIX! });
    try {
      await slack.waitFor(async () => (await queue.getJobState('job-1')) === 'delayed', {
        timeoutMs: 30_000,
        description: 'job #1 parked for its approval',
      });
    } finally {
      await queue.close();
      connection.disconnect();
    }
    const first = workers.find((w) => started(w) > 0)!;
    first.child.kill('SIGKILL');
    await first.exited;
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('*cilium dev*') && m.text.includes('✅ succeeded')),
      { timeoutMs: 120_000, description: 'the surviving worker finished the approved job' },
    );
    const other = workers.find((w) => w !== first)!;
    expect(started(other)).toBe(1);
  });

  it("a worker SIGKILLed while its jobs' threads are still being sent: another process sends the rest, nothing lost", async () => {
    const JOBS = 10;
    lab = await startSlackLab({ workers: 1, env: { COMMANDS_PER_USER_PER_MINUTE: String(JOBS) } });
    const { slack, driver, workers } = lab;
    // Slack takes no post until the kill, however fast the machine runs the jobs: every thread is
    // still in its outbox when the worker dies (the jobs' outcomes never wait for Slack).
    const HOLD_MS = 600_000;
    slack.stormRateLimit('chat.postMessage', { retryAfterSec: 1, durationMs: HOLD_MS });
    const redis = new Redis(REDIS_URL);
    try {
      const records = createJobRecords(redis, redisKeys(lab.processEnv.REDIS_PREFIX!));
      for (let i = 0; i < JOBS; i++)
        await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
      await slack.waitFor(
        async () => {
          const recent = await records.recent(JOBS);
          return recent.length === JOBS && recent.every((record) => record.outcome);
        },
        { timeoutMs: 60_000, intervalMs: 100, description: `${JOBS} outcomes decided` },
      );
    } finally {
      redis.disconnect();
    }
    const roots = () => slack.messages('C0OPS').filter((m) => m.text.includes('*verify dev*'));
    const replies = (ts: string) => slack.replies('C0OPS', ts).map((m) => m.text);
    const threadDone = (ts: string) => replies(ts).some((text) => /job #\d+ succeeded/.test(text));
    // Every outcome decided, no thread out yet: the worker dies, and Slack takes posts again.
    expect(roots()).toEqual([]);
    workers[0]!.child.kill('SIGKILL');
    await workers[0]!.exited;
    slack.stormRateLimit('chat.postMessage', { retryAfterSec: 1, durationMs: 0 });

    // The bot process takes the dead worker's outboxes over once their leases lapse.
    await slack.waitFor(
      () => {
        const done = new Set(
          roots()
            .filter((root) => threadDone(root.ts))
            .map((root) => /job #(\d+)/.exec(root.text)![1]),
        );
        return done.size === JOBS || undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250, description: `${JOBS} verify threads finished` },
    );
    let repeated = 0;
    for (let number = 1; number <= JOBS; number++) {
      const ofJob = roots().filter((root) => root.text.includes(`job #${number} `));
      // A root in flight as the worker died may have reached Slack unrecorded: then it is posted again.
      expect(ofJob.length).toBeLessThanOrEqual(2);
      repeated += ofJob.length - 1;
      const root = ofJob.find((candidate) => threadDone(candidate.ts))!;
      expect(root.text).toContain('succeeded');
      const texts = replies(root.ts);
      const once = texts.filter((text, index) => text !== texts[index - 1]);
      repeated += texts.length - once.length;
      expect(once).toEqual([
        expect.stringMatching(/^✅ verify gates \(one read\) \([^)]+\): 3\/3 nodes Ready/),
        expect.stringMatching(new RegExp(`^✅ job #${number} succeeded`)),
      ]);
      // The log, uploaded into the thread (twice only if it was the upload in flight at the kill).
      const logs = slack.files.filter((f) => f.channel === 'C0OPS' && f.thread_ts === root.ts);
      expect(logs.length).toBeGreaterThanOrEqual(1);
      repeated += logs.length - 1;
    }
    // At most the message in flight at the kill went twice.
    expect(repeated).toBeLessThanOrEqual(1);
    expect(lab.bot.output()).not.toContain('"level":50');
  });
});
