import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { REDIS_URL } from '../support/redis-prefix.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

/** What a compromised node (or a playbook echoing its input) can print. */
const HOSTILE = '<!channel> urgent: re-run at <http://evil.example/fix|the runbook> & <!here>';
const LIVE_MARKUP = /<!channel>|<!here>|<http:\/\/evil/;

let lab: SlackLab;
beforeAll(async () => {
  lab = await startSlackLab({
    env: { JOB_RETENTION: '2h' },
    labVars: { lab_fail: [{ task: 'Install base packages', host: 'k3s-dev-2', msg: HOSTILE }] },
  });
}, labMs(120_000));
afterAll(async () => {
  await lab?.stop();
});

const queued = () => lab.slack.ephemerals.filter((e) => e.text.startsWith('Queued as job'));

describe('the edges of the Slack listener and what anyone in the workspace can trigger', {
  timeout: labMs(120_000),
}, () => {
  it('refuses a correctly signed request dated more than 5 minutes ahead (401), like a stale one', async () => {
    const future = Math.floor(Date.now() / 1_000) + 6 * 60;
    const response = await lab.driver.slash('up dev', {
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      timestamp: future,
    });
    expect(response.status).toBe(401);
    const nearFuture = await lab.driver.slash('help', {
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      timestamp: Math.floor(Date.now() / 1_000) + 60,
    });
    expect(nearFuture.status).toBe(200);
    expect(queued()).toEqual([]);
  });

  it('refuses a body larger than 64 KB with 413 before checking its signature, and runs nothing', async () => {
    const body = new URLSearchParams({
      command: '/cluster',
      text: `verify dev ${'x'.repeat(70 * 1024)}`,
      user_id: 'U0ALICE',
      channel_id: 'C0OPS',
      trigger_id: 'big.1',
      response_url: lab.slack.createResponseUrl({
        kind: 'slash_commands',
        userId: 'U0ALICE',
        channel: 'C0OPS',
      }),
    }).toString();
    const signed = await lab.driver.sendRaw({ body, headers: lab.driver.signedHeaders(body) });
    expect(signed.status).toBe(413);
    const unsigned = await lab.driver.sendRaw({
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsigned.status).toBe(413);
    expect(queued()).toEqual([]);
  });

  it('serves /metrics and /readyz only on the ops port; /healthz on both; /readyz says only ok', async () => {
    const slackPort = `http://127.0.0.1:${lab.bot.port}`;
    const opsPort = `http://127.0.0.1:${lab.bot.opsPort}`;
    expect((await fetch(`${slackPort}/healthz`)).status).toBe(200);
    expect((await fetch(`${slackPort}/metrics`)).status).toBe(404);
    expect((await fetch(`${slackPort}/readyz`)).status).toBe(404);
    expect((await fetch(`${opsPort}/healthz`)).status).toBe(200);
    const ready = await fetch(`${opsPort}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ok\n']);
    expect(await (await fetch(`${opsPort}/metrics`)).text()).toContain('cluster_bot_');
  });

  it("a finished job's record, steps, thread state and page feed expire after JOB_RETENTION; the audit stays", async () => {
    // A slow Slack: the job ends before its thread's root message is sent, so the key keeping its
    // ts is first written after the job settled, and must get the retention too.
    lab.slack.setLatency(5_000);
    await lab.driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const queuedAs = await lab.slack.waitFor(() => queued()[0], { timeoutMs: 15_000 });
    const jobId = `job-${/#(\d+)/.exec(queuedAs.text)![1]}`;
    await lab.slack.waitFor(() => lab.slack.files.find((f) => f.filename === `${jobId}.log`), {
      timeoutMs: 60_000,
    });
    lab.slack.setLatency(0);
    const redis = new Redis(REDIS_URL);
    try {
      const prefix = lab.processEnv.REDIS_PREFIX;
      const job = `${prefix}:job:${jobId}`;
      // The upload leaves the thread's outbox (and its lease) once Slack has answered it; the
      // appender's numbering stays, with the job's retention like the rest.
      const keys = await lab.slack.waitFor(async () => {
        const found = await redis.keys(`${job}*`);
        const sending = [`${job}:outbox`, `${job}:outbox:lease`];
        return found.some((key) => sending.includes(key)) ? undefined : found;
      });
      expect(keys.sort()).toEqual(
        [
          job,
          `${job}:board`,
          `${job}:steps`,
          `${job}:thread:messages`,
          `${job}:outbox:seq`,
          `${job}:feed:log`,
          `${job}:feed:events`,
        ].sort(),
      );
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        expect(ttl, key).toBeGreaterThan(3_600_000);
        expect(ttl, key).toBeLessThanOrEqual(2 * 3_600_000);
      }
      expect(await redis.pttl(`${prefix}:audit`)).toBe(-1);
    } finally {
      redis.disconnect();
    }
  });

  it('hostile playbook output reaches the thread as text, never as a ping or a link', async () => {
    await lab.driver.slash('packages k3s-dev-2', { userId: 'U0BOB', channelId: 'C0OPS' });
    const queuedAs = await lab.slack.waitFor(
      () => lab.slack.ephemerals.find((e) => e.user === 'U0BOB' && e.text.includes('`packages k3s-dev-2`')),
      { timeoutMs: 15_000 },
    );
    const number = /#(\d+)/.exec(queuedAs.text)![1];
    const log = await lab.slack.waitFor(
      () => lab.slack.files.find((f) => f.filename === `job-${number}.log`),
      {
        timeoutMs: 90_000,
      },
    );
    // The log file is plain text, kept as printed; everything rendered as mrkdwn is escaped.
    expect(log.content).toContain(HOSTILE);
    const rendered = lab.slack.calls.filter((call) => call.method !== 'file_upload');
    for (const call of rendered) expect(JSON.stringify(call.args), call.method).not.toMatch(LIVE_MARKUP);
    const failure = lab.slack
      .allMessages('C0OPS')
      .find((m) => m.text.startsWith('❌') && m.text.includes('Install base packages'));
    expect(failure?.text).toContain(
      '&lt;!channel&gt; urgent: re-run at &lt;http://evil.example/fix|the runbook&gt; &amp; &lt;!here&gt;',
    );
  });

  it('hostile command text comes back escaped in the answer', async () => {
    const texts = [
      '<!channel> <http://evil.example|click>',
      'packages <!here>',
      'plan reprovision <http://evil.example|k3s-dev-1>',
      'status <@U0BOB>',
    ];
    for (const text of texts) await lab.driver.slash(text, { userId: 'U0ALICE', channelId: 'C0OPS' });
    const answers = await lab.slack.waitFor(
      () => {
        const mine = lab.slack.ephemerals.filter((e) => e.user === 'U0ALICE' && e.text.startsWith('⛔'));
        return mine.length >= texts.length ? mine : undefined;
      },
      { timeoutMs: 15_000 },
    );
    for (const answer of answers) {
      expect(answer.text).toMatch(/^⛔/);
      expect(answer.text).not.toMatch(LIVE_MARKUP);
    }
    expect(answers.map((a) => a.text).join('\n')).toContain('&lt;!channel&gt;');
  });

  it('a workspace member flooding commands gets "slow down" and cannot use up the user-group look-up', async () => {
    const before = lab.slack.callsTo('usergroups.users.list').length;
    const sent = await Promise.all(
      Array.from({ length: 25 }, () =>
        lab.driver.slash('status', { userId: 'U0MALLORY', channelId: 'C0OPS' }),
      ),
    );
    expect(sent.every((response) => response.status === 200)).toBe(true);
    const answers = await lab.slack.waitFor(
      () => {
        const mine = lab.slack.ephemerals.filter((e) => e.user === 'U0MALLORY');
        return mine.length >= 25 ? mine.map((e) => e.text) : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const slowDown = answers.filter((text) =>
      text.startsWith('⏳ Slow down: at most 10 /cluster commands a minute per person. Nothing was run'),
    );
    // Ten a minute: even if the burst straddles a minute boundary, at least five are refused.
    expect(slowDown.length).toBeGreaterThanOrEqual(5);
    expect(answers.filter((text) => text.startsWith('⛔ You are not an operator'))).toHaveLength(
      25 - slowDown.length,
    );
    // Every refusal above resolved the S0PLATFORM group; Slack was asked at most once a minute.
    expect(lab.slack.callsTo('usergroups.users.list').length - before).toBeLessThanOrEqual(2);
    // An operator in that group is still let in, from the cached answer.
    await lab.driver.slash('status dev', { userId: 'U0DAVE', channelId: 'C0OPS' });
    const dave = await lab.slack.waitFor(() => lab.slack.ephemerals.find((e) => e.user === 'U0DAVE'), {
      timeoutMs: 15_000,
    });
    expect(dave.text).not.toMatch(/^⛔|^⏳/);
  });
});
