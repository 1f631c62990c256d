import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('scheduled verify', { timeout: labMs(180_000) }, () => {
  it('alerts once when a gate starts failing, does not repeat within the interval, and posts the recovery once', async () => {
    lab = await startSlackLab({
      dev: { verifyEvery: '2s', verifyAlertRepeat: '1h' },
      // A scheduled verify reads once: were it to wait for the gate timeout, no alert would come in time.
      timeouts: { gate: '10m' },
    });
    const { slack, sim } = lab;
    const alerts = () => slack.messages('C0ALERTS').map((m) => m.text);
    // Healthy: several runs, no alert.
    await slack.waitFor(() => (lab!.bot.output().match(/scheduled verify/g)?.length ?? 0) >= 2 || undefined, {
      timeoutMs: 20_000,
      description: 'two scheduled runs',
    });
    expect(alerts()).toEqual([]);

    sim.setNodeReady('k3s-dev-2', false);
    await slack.waitFor(() => alerts().find((t) => t.includes('nodes Ready')), { timeoutMs: 20_000 });
    const runsAtAlert = (lab.bot.output().match(/scheduled verify/g) ?? []).length;
    await slack.waitFor(
      () =>
        (lab!.bot.output().match(/scheduled verify/g)?.length ?? 0) >= runsAtAlert + 2 ? true : undefined,
      { timeoutMs: 30_000, description: 'two more failing runs' },
    );
    expect(alerts().filter((t) => t.includes('nodes Ready'))).toEqual([
      expect.stringMatching(/^🚨 dev: gate \*nodes Ready\* failed \(scheduled verify\): k3s-dev-2 NotReady/),
    ]);

    sim.setNodeReady('k3s-dev-2', true);
    await slack.waitFor(() => alerts().find((t) => t.includes('passes again')), { timeoutMs: 30_000 });
    expect(alerts().filter((t) => t.includes('nodes Ready'))).toEqual([
      expect.stringMatching(/failed \(scheduled verify\)/),
      '✅ dev: gate *nodes Ready* passes again (scheduled verify)',
    ]);
  });
});
