import { describe, expect, it } from 'vitest';
import type { startFakeSlack } from '../lab/fake-slack/index.js';
import type { KubeSimOptions } from '../lab/kube-sim/start-kube-sim.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { startSlackLab } from '../support/start-slack-lab.js';

const cleanups = cleanupAfterEach();

/** The bot process against the lab: fake Slack, kube-sim, the nodes (their k3s config) over a real sshd. */
async function startWorld(sim: KubeSimOptions = {}) {
  const lab = await startSlackLab({ sim });
  cleanups.push(() => lab.stop());
  return lab;
}

const ephemeralTexts = (slack: Awaited<ReturnType<typeof startFakeSlack>>) =>
  slack.ephemerals.map((e) => e.text);

describe('walking skeleton: the real bot process, fake Slack, kube-sim, real Redis', () => {
  it('answers help, runs verify dev as a job and reports it in a thread', async () => {
    const { slack, driver, bot } = await startWorld();
    const help = await driver.slash('help', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(help.status).toBe(200);
    await slack.waitFor(() => ephemeralTexts(slack).find((t) => t.includes('*/cluster* runs the life')), {
      timeoutMs: 10_000,
    });

    const verify = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(verify.status).toBe(200);
    expect(verify.latencyMs).toBeLessThan(3_000);
    await slack.waitFor(
      () => ephemeralTexts(slack).find((t) => t.startsWith('Queued as job #1: `verify dev`')),
      {
        timeoutMs: 10_000,
      },
    );
    const board = await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('verify dev') && m.text.includes('succeeded')),
      { timeoutMs: 20_000 },
    );
    expect(board.text).toContain('asked by <@U0ALICE>');
    expect(board.text).toContain('✅ 1. verify gates');
    const replies = await slack.waitFor(
      () => {
        const thread = slack.replies('C0OPS', board.ts).map((m) => m.text);
        return thread.some((t) => t.includes('job #1 succeeded')) ? thread : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(replies.join('\n')).toMatch(/✅ verify gates .*3\/3 nodes Ready/);
    await slack.waitFor(
      () => slack.files.find((f) => f.thread_ts === board.ts && f.content.includes('nodes Ready')),
      {
        timeoutMs: 10_000,
      },
    );
    expect(slack.messages('C0ALERTS')).toEqual([]);
    // The JSON logs mark each step's start, so an operator can time a job without Slack.
    const stepStarted = bot
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"step started"'));
    expect(stepStarted).toEqual([expect.stringMatching(/"jobId":"job-1".*"stepId":"1-verify"/)]);

    const ready = await fetch(`http://127.0.0.1:${bot.opsPort}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${bot.opsPort}/metrics`)).text();
    expect(metrics).toContain('cluster_bot_jobs_total{command="verify",outcome="succeeded"} 1');
    expect(metrics).toMatch(/cluster_bot_step_duration_seconds_count\{step="verify",status="succeeded"\} 1/);
    expect(metrics).toMatch(/cluster_bot_slack_calls_total\{method="chat.postMessage"\} [1-9]/);
  });

  it('alerts the alerts channel with the gate, what it saw and a link when verify fails', async () => {
    const { slack, driver } = await startWorld({ scenario: { nodeNotReady: 'k3s-dev-2', kubeProxy: true } });
    await driver.slash('verify dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    const alerts = await slack.waitFor(
      () => {
        const texts = slack.messages('C0ALERTS').map((m) => m.text);
        const both =
          texts.some((t) => t.includes('nodes Ready')) && texts.some((t) => t.includes('no kube-proxy'));
        return both ? texts : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(alerts.find((t) => t.includes('nodes Ready'))).toMatch(
      /dev: gate \*nodes Ready\* failed: k3s-dev-2 NotReady/,
    );
    expect(alerts.find((t) => t.includes('no kube-proxy'))).toMatch(
      /kube-proxy present: DaemonSet kube-system\/kube-proxy/,
    );
    expect(alerts[0]).toMatch(/<http.*\/archives\/C0OPS\/p\d+\|job #1 thread>/);
    await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('❌ failed')), {
      timeoutMs: 15_000,
    });
  });

  it('answers a bad signature with 401 and enqueues nothing; refuses strangers and unknown nodes', async () => {
    const { slack, driver } = await startWorld();
    const forged = await driver.slash('verify dev', {
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      signature: 'bad',
    });
    expect(forged.status).toBe(401);
    const stranger = await driver.slash('verify dev', { userId: 'U0MALLORY', channelId: 'C0OPS' });
    expect(stranger.status).toBe(200);
    const typo = await driver.slash('reprovision k3s-dev3', { userId: 'U0ALICE', channelId: 'C0OPS' });
    expect(typo.status).toBe(200);
    await slack.waitFor(() => (slack.ephemerals.length >= 2 ? true : undefined), { timeoutMs: 10_000 });
    expect(ephemeralTexts(slack)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/You are not an operator/),
        expect.stringMatching(/unknown node "k3s-dev3": not in the inventory. Did you mean `k3s-dev-3`\?/),
      ]),
    );
    expect(slack.messages('C0OPS')).toEqual([]);
  });

  it('a repeated delivery of the same command creates one job', async () => {
    const { slack, driver } = await startWorld();
    const first = await driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await driver.resend(first);
    await driver.slash('verify dev', {
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      retryNum: 1,
      retryReason: 'http_timeout',
      body: { trigger_id: new URLSearchParams(String(first.request.body)).get('trigger_id')! },
    });
    await slack.waitFor(() => slack.messages('C0OPS').find((m) => m.text.includes('succeeded')), {
      timeoutMs: 20_000,
    });
    expect(ephemeralTexts(slack).filter((t) => t.startsWith('Queued as job'))).toHaveLength(1);
    expect(slack.messages('C0OPS')).toHaveLength(1);
  });
});
