import { afterEach, describe, expect, it } from 'vitest';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('Slack transport and rate limits', { timeout: 180_000 }, () => {
  it('Socket Mode: a command arrives over the WebSocket, is acked, and runs as a job', async () => {
    lab = await startSlackLab({ socketMode: true });
    const { slack, driver } = lab;
    const sent = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(sent.status).toBe(200);
    expect(slack.socketAcks.length).toBeGreaterThan(0);
    await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*verify dev*') && m.text.includes('succeeded')),
      { timeoutMs: 30_000 },
    );
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
    const calls = slack.calls.filter((c) => c.method.startsWith('chat.'));
    expect(calls.length).toBeLessThan(150);
  });

  it('secrets a playbook prints reach neither Slack, the uploaded log, nor the process logs', async () => {
    lab = await startSlackLab({ labVars: { lab_print_secrets: true } });
    const { slack, driver, bot } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const root = await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('*packages k3s-dev-1*') && m.text.includes('succeeded')),
      { timeoutMs: 60_000 },
    );
    const log = await slack.waitFor(() => slack.files.find((f) => f.thread_ts === root.ts), {
      timeoutMs: 30_000,
    });
    expect(log.content).toContain('[REDACTED]');
    const seen = [JSON.stringify(slack.calls.map((c) => c.args)), log.content, bot.output()].join('\n');
    for (const secret of [
      'LabFakeSlackTokenNotReal',
      'hunter2-lab',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU',
      'QyNTUxOQAAACBsYWJmYWtl',
    ]) {
      expect(seen).not.toContain(secret);
    }
  });
});
