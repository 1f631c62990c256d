import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../lab/fake-slack/index.js';
import { approvalMessage } from '../support/approval-message.js';
import { HALTING_ROLLOUT } from '../support/halting-rollout.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab;
beforeAll(async () => {
  lab = await startSlackLab(HALTING_ROLLOUT);
}, labMs(120_000));
afterAll(() => lab?.stop());

const ephemerals = (slack: FakeSlack, user: string) =>
  slack.ephemerals.filter((e) => e.user === user).map((e) => e.text);
const threadTexts = (slack: FakeSlack, rootTs: string) => slack.replies('C0OPS', rootTs).map((m) => m.text);

/** Approves the step's request; returns what the request showed before the click replaced it. */
async function approve(title: string) {
  const { slack, driver } = lab;
  const request = await approvalMessage(slack, title);
  const shown = JSON.stringify(slack.message('C0OPS', request.ts)?.blocks);
  await driver.click({
    channel: 'C0OPS',
    where: { ts: request.ts },
    button: { text: 'Approve' },
    userId: 'U0BOB',
  });
  return shown;
}

const board = (title: string, status: string) =>
  lab.slack.waitFor(
    () => lab.slack.messages('C0OPS').find((m) => m.text.startsWith(`*${title}*`) && m.text.includes(status)),
    { timeoutMs: 90_000, description: `board of ${title} showing ${status}` },
  );

describe('Roll back Cilium from the thread of a halted rollout', { timeout: labMs(240_000) }, () => {
  it('the halted rollout offers the button; strangers and forged values queue nothing; an operator click queues the approved rollback, which restores the agents', async () => {
    const { slack, driver } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await approve('cilium.yml');
    const halted = await board('cilium dev', 'failed');
    const offer = await slack.waitFor(
      () =>
        slack
          .replies('C0OPS', halted.ts)
          .find((m) => JSON.stringify(m.blocks ?? []).includes('Roll back Cilium')),
      { timeoutMs: 15_000, description: 'the Roll back Cilium button in the thread' },
    );
    expect(offer.text).toContain('cilium.yml failed, so agents may run the new revision');
    expect(threadTexts(slack, halted.ts).join('\n')).toContain('stays suspended: cilium.yml failed');
    // status (and the overview the App Home reads) says Flux is left suspended, and by which job.
    await driver.slash('status dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    await slack.waitFor(
      () =>
        ephemerals(slack, 'U0BOB').find((t) =>
          /• ⚠ Flux suspended for Cilium since job #1 failed at .* UTC: .*`\/cluster cilium dev --resume-flux`/.test(
            t,
          ),
        ),
      { timeoutMs: 10_000, description: 'status showing Flux suspended' },
    );

    /** Clicks Roll back Cilium as `userId` (with the button's value changed, for a forged click) and waits for the answer. */
    const clickRollback = async (userId: string, answer: string, editValue?: () => string) => {
      const click = await driver.click({
        channel: 'C0OPS',
        where: { ts: offer.ts },
        button: { text: 'Roll back Cilium' },
        userId,
        ...(editValue ? { editValue } : {}),
      });
      await slack.waitFor(() => ephemerals(slack, userId).find((t) => t.includes(answer)), {
        timeoutMs: 10_000,
        description: `${userId} told ${answer}`,
      });
      return click;
    };
    await clickRollback('U0MALLORY', 'not an operator of dev');
    await clickRollback('U0ALICE', 'does not belong to a job', () => 'job-99');
    expect(slack.messages('C0OPS').filter((m) => m.text.includes('cilium dev --rollback'))).toEqual([]);
    const queued = await clickRollback('U0ALICE', 'Queued as job #2: `cilium dev --rollback`');
    await slack.waitFor(
      () =>
        threadTexts(slack, halted.ts).find((t) => t.includes('<@U0ALICE> asked to roll back Cilium: job #2')),
      { timeoutMs: 10_000 },
    );
    // Slack delivering the same click again runs nothing; a second click is told the rollback is queued.
    expect((await driver.resend({ ...queued, responseUrl: '' })).status).toBe(200);
    await clickRollback('U0BOB', "This rollout's rollback is job #2 already");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ephemerals(slack, 'U0ALICE').filter((t) => t.includes('rollback is job #2 already'))).toEqual([]);
    expect(slack.messages('C0OPS').filter((m) => m.text.includes('cilium dev --rollback'))).toHaveLength(1);
    expect(await approve('helm rollback cilium')).toContain(
      'from revision 3 (cilium-1.20.1, deployed) to revision 2 (cilium-1.20.1, superseded)',
    );
    const done = await board('cilium dev --rollback', 'succeeded');
    expect(done.text).toContain('✅ 3. watch Cilium rollout');
    // Flux stays suspended: git still holds the values that failed. status says so, and why.
    expect(lab.sim.helmRelease()?.spec.suspend).toBe(true);
    await driver.slash('status dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    const status = await slack.waitFor(
      () => ephemerals(slack, 'U0BOB').filter((t) => t.startsWith('*dev*'))[1],
      {
        timeoutMs: 10_000,
        description: 'status after the rollback',
      },
    );
    expect(status).toMatch(
      /• ⚠ Flux suspended for Cilium since job #2 succeeded at .* UTC: rolled back; fix the repo, then `\/cluster cilium dev --resume-flux`/,
    );
  });
});
