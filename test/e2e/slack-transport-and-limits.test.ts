import { afterEach, describe, expect, it } from 'vitest';
import { dumpRedis } from '../support/dump-redis.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('Slack transport and rate limits', { timeout: labMs(180_000) }, () => {
  it('Socket Mode: a command arrives over the WebSocket, is acked, and runs as a job; its page is served on PORT', async () => {
    lab = await startSlackLab({
      socketMode: true,
      // No signing secret in Socket Mode: the job page's key must be given.
      env: {
        PUBLIC_URL: 'https://bot.example.test',
        JOB_PAGE_SECRET: 'socket-mode-job-page-secret-0123456789',
      },
    });
    const { slack, driver, bot } = lab;
    const sent = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(sent.status).toBe(200);
    expect(slack.socketAcks.length).toBeGreaterThan(0);
    const board = await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*verify dev*') && m.text.includes('succeeded')),
      { timeoutMs: 30_000 },
    );
    const link = /<https:\/\/bot\.example\.test(\/jobs\/[^|>]+)\|/
      .exec(board.text)![1]!
      .replaceAll('&amp;', '&');
    const data = await fetch(`http://127.0.0.1:${bot.port}${link.replace('?', '/data?')}`);
    expect(data.status).toBe(200);
    expect(await data.json()).toMatchObject({ title: 'verify dev', record: { outcome: 'succeeded' } });
  });

  it('a 429 storm during a long playbook: the job succeeds, the final status and log arrive, no call per line', async () => {
    lab = await startSlackLab({ labVars: { lab_output_lines: 20_000 } });
    const { slack, driver } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const root = await slack.waitFor(
      () => slack.messages('C0OPS').find((m) => m.text.includes('*packages k3s-dev-1*')),
      {
        timeoutMs: 30_000,
      },
    );
    slack.stormRateLimit('*', { retryAfterSec: 2, durationMs: 8_000 });
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('✅ succeeded') || undefined, {
      timeoutMs: 90_000,
      description: 'final status after the storm',
    });
    const log = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts), {
      timeoutMs: 60_000,
    });
    expect(log.content.split('\n').length).toBeGreaterThan(20_000);
    expect(slack.rateLimitedCount()).toBeGreaterThan(0);
    // The Web API client says so through the process's (redacting) JSON logger, not the console.
    expect(lab.bot.output()).toMatch(/"component":"slack-sdk","msg":"API Call failed due to rate limiting/);
    const calls = slack.calls.filter((c) => c.method.startsWith('chat.'));
    expect(calls.length).toBeLessThan(150);
  });

  it('printed secrets of every shape, in the output and in a --check --diff preview, reach none of Slack (approval blocks included), Redis, the audit stream, the uploaded log or the process logs', async () => {
    lab = await startSlackLab({ labVars: { lab_print_secrets: true } });
    const { slack, driver, bot } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await slack.waitFor(
      () =>
        slack
          .allMessages('C0OPS')
          .find(
            (m) =>
              m.text.includes('approval needed for cilium.yml') &&
              JSON.stringify(m.blocks ?? []).includes('"type":"button"'),
          ),
      { timeoutMs: 90_000, description: 'the approval request with its check-mode preview' },
    );
    // The preview's diff shows the written config, its join token masked.
    const requestBlocks = JSON.stringify(slack.message('C0OPS', request.ts)?.blocks);
    expect(requestBlocks).toContain('Check-mode preview');
    expect(requestBlocks).toContain('+k3s_token: [REDACTED]');
    const pendingRedis = await dumpRedis(lab.processEnv.REDIS_PREFIX!);

    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    const root = await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*cilium dev*') && m.text.includes('succeeded')),
      { timeoutMs: 120_000, description: 'cilium dev succeeded' },
    );
    const log = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts), {
      timeoutMs: 30_000,
    });
    const seen = {
      'Slack calls': JSON.stringify([
        slack.calls.map((c) => c.args),
        slack.ephemerals,
        slack.responseUrlPosts,
      ]),
      'uploaded log': log.content,
      'process logs': bot.output(),
      'Redis (job, approvals, steps, board, audit, queue)':
        pendingRedis + (await dumpRedis(lab.processEnv.REDIS_PREFIX!)),
    };
    const b64url = (text: string) => Buffer.from(text).toString('base64url');
    const secrets = [
      'LabFakeSlackTokenNotReal',
      'hunter2-lab',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU',
      'QyNTUxOQAAACBsYWJmYWtl',
      'LabFakeK3sNodeToken',
      'LabFakeK3sBareToken',
      'LabFakeK3sDiffToken',
      b64url('{"sub":"LabFakeServiceAccount"}'),
      'LabFakeJwtSignature',
      Buffer.from('-----BEGIN EC PRIVATE KEY-----\nLabFakeKubeconfigClientKey').toString('base64').slice(16),
      Buffer.from('LabFakeVaultPayload').toString('hex'),
      'LabFakeSlackRefreshToken',
      'LabFakeWebhookSecret',
      'LABFAKEKEYID0001',
      'LabFakeAwsSecretKey',
      'LabFakeGithubToken',
      'LabFakeArgvPassword',
      'LabFakeUrlPassword',
      'LabFakeBrokenQuote',
      'LabFakePgpKeyBody',
    ];
    const leaks = secrets.flatMap((secret) =>
      Object.entries(seen)
        .filter(([, text]) => text.includes(secret))
        .map(([where]) => `${secret} in ${where}`),
    );
    expect(leaks).toEqual([]);
    // The lines were printed, with only their secrets masked.
    expect(log.content).toContain('mysql --password [REDACTED] -h db');
    expect(log.content).toContain('aws_secret_access_key = [REDACTED]');
  });
});
