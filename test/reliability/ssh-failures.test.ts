import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

async function runPackages(lab: SlackLab, number: number) {
  await lab.driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
  return lab.slack.waitFor(
    () =>
      lab.slack
        .messages('C0OPS')
        .find((m) => m.text.includes(`job #${number}`) && /Status: (✅|❌)/.test(m.text)),
    { timeoutMs: 60_000, description: `job #${number} ended` },
  );
}

describe('SSH failing under a job', { timeout: labMs(180_000) }, () => {
  it('a changed host key fails the step naming both fingerprints; the lock is released', async () => {
    lab = await startSlackLab();
    const before = lab.ops.hostKeyFingerprint;
    const after = await lab.ops.rotateHostKey();
    const board = await runPackages(lab, 1);
    expect(board.text).toContain('❌ failed');
    const thread = lab.slack
      .replies('C0OPS', board.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toContain(before);
    expect(thread).toContain(after);
    // The failed job let go of dev: the next one is queued, not refused as busy.
    await lab.driver.slash('packages k3s-dev-2', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await lab.slack.waitFor(() => lab!.slack.ephemerals.find((e) => e.text.startsWith('Queued as job #2')), {
      timeoutMs: 15_000,
    });
  });

  it('an unreachable ops host fails the step with the reason, quickly', async () => {
    lab = await startSlackLab();
    // The listener dies; keys and known_hosts stay, as on a real ops host that is down.
    await lab.ops.kill();
    const started = Date.now();
    const board = await runPackages(lab, 1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(board.text).toContain('❌ failed');
    const thread = lab.slack
      .replies('C0OPS', board.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toMatch(/node-baseline\.yml failed after .*unreachable/i);
  });
});
