import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRecords } from '../../src/jobs/job-record.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { labMs } from '../support/lab-time.js';
import { REDIS_URL } from '../support/redis-prefix.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

const JOBS = 60;

let lab: SlackLab;
let redis: Redis;
beforeAll(async () => {
  lab = await startSlackLab({ workers: 3, env: { COMMANDS_PER_USER_PER_MINUTE: String(JOBS) } });
  redis = new Redis(REDIS_URL);
}, labMs(60_000));
afterAll(async () => {
  redis?.disconnect();
  await lab?.stop();
});

describe('one Slack budget for all processes', { timeout: labMs(300_000) }, () => {
  it(`three workers, ${JOBS} verify jobs in one channel: outcomes decided long before Slack has taken every message; no 429, every message delivered, each thread in order`, async () => {
    const { slack, driver } = lab;
    const records = createJobRecords(redis, redisKeys(lab.processEnv.REDIS_PREFIX!));
    const started = Date.now();
    for (let i = 0; i < JOBS; i++) {
      const sent = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
      expect(sent.status).toBe(200);
    }
    // The workers are free once every job's outcome is recorded, whatever Slack has taken by then.
    await slack.waitFor(
      async () => {
        const recent = await records.recent(JOBS);
        return recent.length === JOBS && recent.every((record) => record.outcome) ? recent : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 250, description: `${JOBS} outcomes decided` },
    );
    const decidedMs = Date.now() - started;
    const roots = () => slack.messages('C0OPS').filter((m) => m.text.includes('*verify dev*'));
    const threadDone = (ts: string) =>
      slack.replies('C0OPS', ts).some((m) => /job #\d+ succeeded/.test(m.text));
    const threadsDoneAtDecision = roots().filter((root) => threadDone(root.ts)).length;
    await slack.waitFor(
      () => {
        const all = roots();
        return all.length === JOBS && all.every((root) => threadDone(root.ts)) ? all : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 250, description: `${JOBS} verify threads finished` },
    );
    const tookMs = Date.now() - started;
    console.info(
      `${JOBS} verify jobs on 3 workers: outcomes decided in ${decidedMs} ms (${threadsDoneAtDecision} threads complete by then), every thread complete in ${tookMs} ms; ${slack.calls.filter((c) => c.method === 'chat.postMessage').length} posts into one channel, 429s: ${slack.rateLimitedCount()} ${JSON.stringify(slack.calls.filter((c) => c.rateLimited).map((c) => c.method))}`,
    );

    // Each thread as its job told it: the board shows the outcome, the step, then the final report.
    const jobNumbers = roots().map((root) => {
      expect(root.text).toContain('succeeded');
      const number = /job #(\d+)/.exec(root.text)![1];
      expect(slack.replies('C0OPS', root.ts).map((m) => m.text)).toEqual([
        expect.stringMatching(/^✅ verify gates \(one read\) \([^)]+\): 3\/3 nodes Ready/),
        expect.stringMatching(new RegExp(`^✅ job #${number} succeeded`)),
      ]);
      return Number(number);
    });
    expect(new Set(jobNumbers).size).toBe(JOBS);
    expect(slack.files.filter((f) => f.channel === 'C0OPS')).toHaveLength(JOBS);
    // All three workers ran jobs, so all three posted into the channel.
    for (const worker of lab.workers) expect(worker.output()).toContain('"msg":"job started"');
    expect(slack.rateLimitedCount()).toBe(0);
    // No worker waited for Slack: a quarter of the threads or more were still being written when the
    // last outcome was decided. Workers that waited for their threads had 48 of 60 done by then; these
    // have about 10 (Slack takes a thread every 2 s, so a machine would need 90 s for its outcomes to fail this).
    expect(threadsDoneAtDecision).toBeLessThan((JOBS * 3) / 4);
  });
});
