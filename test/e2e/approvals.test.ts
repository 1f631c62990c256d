import { afterEach, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../lab/fake-slack/index.js';
import { approvalMessage } from '../support/approval-message.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, type SlackLabOptions, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

async function start(options: SlackLabOptions = {}): Promise<SlackLab> {
  lab = await startSlackLab(options);
  return lab;
}

const ephemerals = (slack: FakeSlack, user?: string) =>
  slack.ephemerals.filter((e) => user === undefined || e.user === user).map((e) => e.text);
const threadTexts = (slack: FakeSlack, rootTs: string) => slack.replies('C0OPS', rootTs).map((m) => m.text);
const hasButtons = (slack: FakeSlack, ts: string) =>
  JSON.stringify(slack.message('C0OPS', ts)?.blocks ?? []).includes('"type":"button"');

async function board(slack: FakeSlack, includes: string, status: string, timeoutMs = 60_000) {
  return slack.waitFor(
    () => slack.messages('C0OPS').find((m) => m.text.includes(includes) && m.text.includes(status)),
    { timeoutMs, description: `board of ${includes} showing ${status}` },
  );
}

// Real ansible runs take seconds each; on two busy cores a bring-up takes minutes: before cilium.yml
// asks, it runs the baseline, k3s.yml's preview and run, the kubeconfig proof and two previews.
describe('approvals through Slack buttons, against the real process and lab', {
  timeout: labMs(300_000),
}, () => {
  it('cilium dev: the request shows what will run; strangers and forged values change nothing; an approver lets it run', async () => {
    const { slack, driver } = await start();
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml');
    // It notifies the approvers (the lab's dev allows self-approval, so Alice too) and shows in the
    // channel, not only deep in the job's thread.
    expect(request.subtype).toBe('thread_broadcast');
    expect(request.text).toContain('· <@U0ALICE> <@U0BOB>');
    const requestText = JSON.stringify(slack.message('C0OPS', request.ts)?.blocks);
    expect(requestText).toContain('ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml');
    expect(requestText).toMatch(/Infra repo commit:\* `[0-9a-f]{12}`/);
    expect(requestText).toContain('Check-mode preview');

    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0MALLORY',
    });
    await slack.waitFor(() => ephemerals(slack, 'U0MALLORY').find((t) => t.includes('not an approver')), {
      timeoutMs: 10_000,
    });
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
      editValue: (value) => value.replace('job-1.', 'job-7.'),
    });
    await slack.waitFor(
      () => ephemerals(slack, 'U0BOB').find((t) => t.includes('does not match a pending approval')),
      {
        timeoutMs: 10_000,
      },
    );
    expect(hasButtons(slack, request.ts)).toBe(true);

    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Approve' },
      userId: 'U0BOB',
    });
    const done = await board(slack, 'cilium dev', 'succeeded');
    expect(slack.message('C0OPS', request.ts)?.text).toMatch(
      /✅ cilium.yml approved by <@U0BOB> at \d{4}-\d\d-\d\d/,
    );
    expect(hasButtons(slack, request.ts)).toBe(false);
    expect(done.text).toContain('✅ 3. watch Cilium rollout');
    await slack.waitFor(
      () => threadTexts(slack, done.ts).find((t) => /watch Cilium rollout .*rolled to revision/.test(t)),
      {
        timeoutMs: 15_000,
      },
    );
    // The rollout read the verify gates: status counts that as the cluster's last verify.
    await driver.slash('status dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await slack.waitFor(
      () =>
        ephemerals(slack, 'U0ALICE').find((t) =>
          /last verify: succeeded at .* \(job #1\): .*nodes Ready/.test(t),
        ),
      { timeoutMs: 10_000, description: 'status naming the rollout as the last verify' },
    );
  });

  it('a rejection ends the job at once and says who rejected', async () => {
    const { slack, driver } = await start();
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml');
    await driver.click({
      channel: 'C0OPS',
      where: { ts: request.ts },
      button: { text: 'Reject' },
      userId: 'U0BOB',
    });
    const root = await board(slack, 'cilium dev', 'rejected');
    expect(slack.message('C0OPS', request.ts)?.text).toMatch(/🚫 cilium.yml rejected by <@U0BOB>/);
    await slack.waitFor(
      () =>
        threadTexts(slack, root.ts).find((t) => t.includes('job #1 rejected: cilium.yml rejected by U0BOB')),
      {
        timeoutMs: 15_000,
      },
    );
  });

  it('an unanswered approval reminds its approvers once at half its time, then expires and its buttons go away', async () => {
    const { slack, driver } = await start({ dev: { approvalTimeout: '20s' } });
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml');
    const root = await board(slack, 'cilium dev', 'approval expired');
    await slack.waitFor(() => !hasButtons(slack, request.ts) || undefined, { timeoutMs: 10_000 });
    expect(slack.message('C0OPS', request.ts)?.text).toContain('approval expired');
    // Twenty seconds leave no room for the five-minutes-before one: one reminder, broadcast, naming
    // the approvers and linking the request.
    const reminders = slack.replies('C0OPS', root.ts).filter((m) => m.text.startsWith('⏰'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subtype).toBe('thread_broadcast');
    expect(reminders[0]!.text).toMatch(
      /^⏰ job #1 still waits for approval of cilium\.yml: it expires at \d\d:\d\d UTC \(in \d+s\); see <[^|]+\|the request> · <@U0ALICE> <@U0BOB>$/,
    );
  });

  it('prod needs two distinct approvers and refuses the requester', async () => {
    // Prod as it will be once racked: three servers in hosts.ini and its vault (the prod rules hold).
    const racked = { prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: true, blocked: false };
    const { slack, driver } = await start({ repo: racked, prod: 'formed' });
    await driver.slash('cilium prod', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const request = await approvalMessage(slack, 'cilium.yml');
    // Alice asked and may not approve her own prod job: the request names only the others.
    expect(request.text).toContain('· <@U0BOB> <@U0CAROL>');
    expect(request.text).not.toContain('<@U0ALICE>');
    const click = (userId: string) =>
      driver.click({ channel: 'C0OPS', where: { ts: request.ts }, button: { text: 'Approve' }, userId });
    await click('U0ALICE');
    await slack.waitFor(
      () => ephemerals(slack, 'U0ALICE').find((t) => t.includes('does not allow self-approval')),
      {
        timeoutMs: 10_000,
      },
    );
    await click('U0BOB');
    await slack.waitFor(
      () => slack.allMessages('C0OPS').find((m) => m.text.includes('approved cilium.yml (1/2)')),
      {
        timeoutMs: 10_000,
      },
    );
    await click('U0BOB');
    await slack.waitFor(
      () => ephemerals(slack, 'U0BOB').find((t) => t.includes('already counted; 1 more needed')),
      {
        timeoutMs: 10_000,
      },
    );
    expect(hasButtons(slack, request.ts)).toBe(true);
    await click('U0CAROL');
    await board(slack, 'cilium prod', 'succeeded');
    expect(slack.message('C0OPS', request.ts)?.text).toMatch(/approved by <@U0BOB>, <@U0CAROL>/);
  });

  // After flux-bootstrap.yml is approved, up dev still runs it, kube-vip, the VPN egress gateway (each
  // with its preview), the VPN check and verify: minutes of real ansible on two busy cores. The
  // test's timeout covers its three waits (120 s + 120 s + 180 s on a quiet machine).
  it('up dev: every ⚠ step is approved from its thread and the bring-up runs through to success', {
    timeout: labMs(450_000),
  }, async () => {
    const { slack, driver } = await start();
    await driver.slash('up dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    for (const title of ['cilium.yml', 'flux-bootstrap.yml']) {
      const request = await approvalMessage(slack, title, 120_000);
      await driver.click({
        channel: 'C0OPS',
        where: { ts: request.ts },
        button: { text: 'Approve' },
        userId: 'U0BOB',
      });
    }
    const done = await board(slack, 'up dev', 'succeeded', 180_000);
    for (const step of [
      'node-baseline.yml',
      'k3s.yml',
      'cilium.yml',
      'flux-bootstrap.yml',
      'kube-vip.yml',
      'vpn.egress.gateway.yml',
      'VPN egress check',
    ]) {
      expect(done.text).toMatch(new RegExp(`✅ \\d+\\. ${step.replace(/\./g, '\\.')}`));
    }
    // The cluster is formed (kube-sim answers with nodes), so k3s.yml ran without asking.
    expect(slack.allMessages('C0OPS').some((m) => m.text.includes('approval needed for k3s.yml'))).toBe(
      false,
    );
  });
});
