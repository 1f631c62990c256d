import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack, HomeViewRecord } from '../lab/fake-slack/index.js';
import { approvalMessage } from '../support/approval-message.js';
import { homeShowing, homeText } from '../support/home-showing.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab;
beforeAll(async () => {
  // The bot taking Slack requests and a separate worker, as in production.
  lab = await startSlackLab({ workers: 1 });
}, labMs(120_000));
afterAll(() => lab?.stop());

type HomeButton = { type: string; text: { text: string }; confirm?: { text: { text: string } } };
const approvalButtonsOf = (view: HomeViewRecord) =>
  view.blocks
    .filter((block) => String(block.block_id).startsWith('home_approval_'))
    .flatMap((block) => block.elements as HomeButton[]);
const labels = (view: HomeViewRecord) => approvalButtonsOf(view).map((button) => button.text.text);
const hasButtons = (slack: FakeSlack, ts: string) =>
  JSON.stringify(slack.message('C0OPS', ts)?.blocks ?? []).includes('"type":"button"');

function board(slack: FakeSlack, job: string, status: string, timeoutMs = 120_000) {
  return slack.waitFor(
    () =>
      slack
        .messages('C0OPS')
        .find(
          (m) => m.text.includes(`job ${job}`) && m.text.includes('cilium dev') && m.text.includes(status),
        ),
    { timeoutMs, description: `board of job ${job} showing ${status}` },
  );
}

/** The ephemeral answer to `/cluster audit` that includes `wanted`, as the person reads it. */
async function auditLine(lab: SlackLab, wanted: RegExp) {
  const before = lab.slack.ephemerals.length;
  await lab.driver.slash('audit 20', { userId: 'U0BOB', channelId: 'C0OPS' });
  const answer = await lab.slack.waitFor(
    () => lab.slack.ephemerals.slice(before).find((e) => e.text.startsWith('Audit trail')),
    { timeoutMs: 15_000, description: 'the audit trail' },
  );
  return answer.text.split('\n').filter((line) => wanted.test(line));
}

// Each job runs cilium dev's preflight and preview before it asks, then the rollout and the gates:
// real ansible on two busy cores.
describe('approvals from the App Home, against the real bot and worker processes', {
  timeout: labMs(300_000),
}, () => {
  it('Approve on the Home decides as the thread does: rules, the thread updated, audited, the thread’s button then stale', async () => {
    const { slack, driver } = lab;
    await driver.homeOpened('U0BOB');
    await driver.homeOpened('U0MALLORY');
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml', 120_000);
    const home = await homeShowing(slack, 'U0BOB', /Waiting for approval:\* job #1 at cilium\.yml/);
    expect(labels(home)).toEqual(['Approve #1 cilium.yml', 'Reject #1 cilium.yml']);
    // Slack asks before sending the Approve: what it covers, as the request says.
    const [approve] = approvalButtonsOf(home);
    expect(approve?.confirm?.text.text).toMatch(
      /^Runs: \[.+\] .*cilium\.yml.*\nTargets: .+\nInfra repo commit: [0-9a-f]{12}\n/,
    );
    // A link to the request itself, in its thread.
    expect(homeText(home)).toContain(
      `/archives/C0OPS/p${request.ts.replace('.', '')}|Open the request in its thread>`,
    );
    // Someone who is no approver is shown no button; one taken from Bob's Home changes nothing.
    await homeShowing(slack, 'U0MALLORY', /not an operator/, 15_000);
    await driver.clickHome({
      userId: 'U0MALLORY',
      buttonFrom: 'U0BOB',
      button: { text: 'Approve #1 cilium.yml' },
    });
    await homeShowing(
      slack,
      'U0MALLORY',
      /\*Approve:\* ⛔ you are not an approver of this cluster; nothing changed/,
    );
    expect(hasButtons(slack, request.ts)).toBe(true);

    const threadCopy = slack.message('C0OPS', request.ts)!;
    await driver.clickHome({ userId: 'U0BOB', button: { text: 'Approve #1 cilium.yml' } });
    // The thread shows the decision as for a click there: the request's buttons replaced.
    await slack.waitFor(() => !hasButtons(slack, request.ts) || undefined, {
      timeoutMs: 15_000,
      description: 'the request decided',
    });
    expect(slack.message('C0OPS', request.ts)?.text).toMatch(/✅ cilium.yml approved by <@U0BOB> at \d{4}-/);
    await homeShowing(slack, 'U0BOB', /\*Approve:\* done; the job’s thread shows it\./, 15_000);
    await board(slack, '#1', 'succeeded');
    // One decision: Alice's client still showing the thread's buttons is refused, and nothing re-runs.
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      shown: threadCopy,
      button: { text: 'Approve' },
      userId: 'U0ALICE',
    });
    await slack.waitFor(
      () =>
        slack.ephemerals.find(
          (e) => e.user === 'U0ALICE' && e.text.includes('this approval is no longer pending (approved)'),
        ),
      { timeoutMs: 15_000, description: 'the stale thread click refused' },
    );
    const bobsHome = await homeShowing(slack, 'U0BOB', /^dev\n\*Lease:\* free/m);
    expect(labels(bobsHome)).toEqual([]);
    // Audited as a click is, saying where it came from: who, the step as the board numbers it, the count.
    expect(await auditLine(lab, /\[#1 step/)).toEqual([
      expect.stringMatching(
        /UTC <@U0ALICE> click-refused \(thread\) \[#1 step 2 approval job-1\.2-cilium\.\w+\]: approve cilium\.yml: this approval is no longer pending \(approved\)$/,
      ),
      expect.stringMatching(
        /UTC <@U0BOB> approve \(App Home\) \[#1 step 2 approval job-1\.2-cilium\.\w+\]: cilium\.yml: approved \(1\/1\)$/,
      ),
      expect.stringMatching(
        /UTC <@U0MALLORY> click-refused \(App Home\) \[#1 step 2 .*you are not an approver of this cluster$/,
      ),
    ]);
  });

  it('a Reject in the thread makes the Home’s Approve stale: refused there, the rejection stands', async () => {
    const { slack, driver } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml', 120_000);
    const shown = await homeShowing(slack, 'U0BOB', /Waiting for approval:\* job #2 at cilium\.yml/);
    expect(labels(shown)).toEqual(['Approve #2 cilium.yml', 'Reject #2 cilium.yml']);
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Reject' },
      userId: 'U0BOB',
    });
    await board(slack, '#2', 'rejected', 30_000);
    // Bob's tab still shows the buttons it had: a click there is refused and decides nothing again.
    await driver.clickHome({ userId: 'U0BOB', shown, button: { text: 'Approve #2 cilium.yml' } });
    await homeShowing(
      slack,
      'U0BOB',
      /\*Approve:\* ⛔ this approval is no longer pending \(rejected\); nothing changed\./,
      15_000,
    );
    expect(slack.message('C0OPS', request.ts)?.text).toMatch(/🚫 cilium.yml rejected by <@U0BOB>/);
    expect(await auditLine(lab, /\[#2 step/)).toEqual([
      expect.stringMatching(
        /<@U0BOB> click-refused \(App Home\) \[#2 step 2 .*no longer pending \(rejected\)$/,
      ),
      expect.stringMatching(/<@U0BOB> reject \(thread\) \[#2 step 2 .*cilium\.yml: rejected$/),
    ]);
  });
});
