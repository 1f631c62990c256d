import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('/cluster health through the real process', { timeout: labMs(180_000) }, () => {
  it('runs beside a job holding the cluster, names the unhealthy host in its thread, and alerts nobody', async () => {
    lab = await startSlackLab({
      labVars: {
        lab_fail: [
          { task: 'Check k3s service is active', host: 'k3s-dev-2', msg: 'k3s.service is inactive (dead)' },
        ],
      },
    });
    const { slack, driver } = lab;
    // A Cilium rollout parked on its approval holds dev's lease.
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await slack.waitFor(
      () => slack.allMessages('C0OPS').find((m) => m.text.includes('approval needed for cilium.yml')),
      { timeoutMs: 60_000, description: 'cilium approval request' },
    );

    await driver.slash('health dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    const board = await slack.waitFor(
      () => slack.messages('C0OPS').find((m) => m.text.includes('*health dev*') && m.text.includes('failed')),
      { timeoutMs: 60_000, description: 'health board failed' },
    );

    expect(slack.ephemerals.find((e) => e.user === 'U0BOB')?.text).toBe(
      'Queued as job #2: `health dev`. Progress goes into its thread.',
    );
    const thread = slack.replies('C0OPS', board.ts).map((m) => m.text);
    expect(thread).toContainEqual(
      expect.stringMatching(
        new RegExp(
          [
            '^❌ node-health.yml failed after .*: node-health.yml failed: k3s-dev-2 unhealthy \\(1 of 3 hosts\\)',
            '• k3s-dev-1: ok',
            '• k3s-dev-2: failed at node_health : Check k3s service is active: k3s.service is inactive \\(dead\\)',
            '• k3s-dev-3: ok$',
          ].join('\n'),
        ),
      ),
    );
    expect(slack.messages('C0ALERTS')).toEqual([]);
  });
});
