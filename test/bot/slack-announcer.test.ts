import { describe, expect, it } from 'vitest';
import { type ApprovalPolicy, createSlackAnnouncer } from '../../src/bot/create-slack-announcer.js';
import type { ApprovalRequest } from '../../src/lifecycle/ports/approval-desk.js';
import { createRecordingPoster } from '../support/recording-poster.js';

const REQUEST: ApprovalRequest = {
  stepId: '2-cilium',
  stepTitle: 'cilium.yml',
  cluster: 'dev',
  reason: 'rolls the CNI',
  binding: { commandLine: 'ansible-playbook playbooks/cilium.yml', targets: 'k3s_dev', fingerprint: 'f00d' },
};

async function announce(policy: Partial<ApprovalPolicy>) {
  const { poster, posts } = createRecordingPoster();
  const threadOf = async () => ({
    channel: 'C0OPS',
    threadTs: '1.0001',
    jobNumber: 4,
    requestedBy: 'U0ALICE',
  });
  const announcer = createSlackAnnouncer(poster, threadOf, () => ({
    timeoutMs: 30 * 60_000,
    approvers: ['U0ALICE', 'U0BOB', 'S0SRE'],
    allowSelfApproval: false,
    ...policy,
  }));
  await announcer.announce('job-4', 'approval-1', REQUEST);
  const [message] = posts;
  return { message: message!, body: JSON.stringify(message!.blocks) };
}

describe('an approval request reaches the people who can decide it', () => {
  it("names the cluster's approvers (users and groups) so Slack notifies them, and is broadcast to the channel", async () => {
    const { message, body } = await announce({});
    expect(message.threadTs).toBe('1.0001');
    expect(message.broadcast).toBe(true);
    expect(message.text).toBe('⏸ approval needed for cilium.yml (job #4) · <@U0BOB> <!subteam^S0SRE>');
    expect(body).toContain('*Who can approve:* <@U0BOB> <!subteam^S0SRE>');
  });

  it('leaves out the requester when the cluster does not allow self-approval, and names them when it does', async () => {
    expect((await announce({})).message.text).not.toContain('<@U0ALICE>');
    expect((await announce({ allowSelfApproval: true })).message.text).toContain('<@U0ALICE> <@U0BOB>');
  });

  it('says so when nobody listed can decide (only the requester, self-approval off)', async () => {
    const { message, body } = await announce({ approvers: ['U0ALICE'] });
    expect(message.text).toBe('⏸ approval needed for cilium.yml (job #4)');
    expect(body).toContain("Nobody listed in this cluster's approvers can decide this request.");
  });
});
