import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalMessage } from '../support/approval-message.js';
import { HALTING_ROLLOUT } from '../support/halting-rollout.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

/**
 * A bring-up on a formed cluster whose Cilium Flux has adopted: up suspends the HelmRelease around
 * cilium.yml as cilium does. When cilium.yml halts, the suspension stands, and it must be on record
 * like a cilium job's: status, the App Home and the hourly reminder read it, and the next cilium job
 * takes it over (a suspension nobody recorded reads as a person's and is never resumed).
 */
let lab: SlackLab;
beforeAll(async () => {
  lab = await startSlackLab(HALTING_ROLLOUT);
}, labMs(120_000));
afterAll(() => lab?.stop());

describe('a halted up dev leaves Flux suspended, on record', { timeout: labMs(300_000) }, () => {
  it('status names the up job that left Flux suspended for Cilium', async () => {
    const { slack, driver } = lab;
    await driver.slash('up dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml', 120_000);
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    const halted = await slack.waitFor(
      () => slack.messages('C0OPS').find((m) => m.text.startsWith('*up dev*') && m.text.includes('failed')),
      { timeoutMs: 120_000, description: 'board of up dev showing failed' },
    );
    const thread = slack.replies('C0OPS', halted.ts).map((m) => m.text);
    expect(thread.join('\n')).toContain('stays suspended: cilium.yml failed');

    await driver.slash('status dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    const status = await slack.waitFor(
      () =>
        slack.ephemerals
          .filter((e) => e.user === 'U0BOB')
          .map((e) => e.text)
          .find((t) => t.includes('Flux suspended')),
      { timeoutMs: 10_000, description: 'status showing Flux suspended' },
    );
    expect(status).toMatch(
      /• ⚠ Flux suspended for Cilium since job #1 failed at .* UTC: .*`\/cluster cilium dev --resume-flux`/,
    );
  });
});
