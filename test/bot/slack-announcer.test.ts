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

/** Job #4, asked for by Alice, its thread in #ops; the requests link to their message. */
function announcerWith(policy: Partial<ApprovalPolicy>) {
  const { poster, posts } = createRecordingPoster();
  const threadOf = async () => ({
    channel: 'C0OPS',
    threadTs: '1.0001',
    jobNumber: 4,
    requestedBy: 'U0ALICE',
  });
  const linked = { ...poster, permalink: (channel: string, ts: string) => `https://lab/${channel}/${ts}` };
  const announcer = createSlackAnnouncer(linked, threadOf, () => ({
    timeoutMs: 30 * 60_000,
    approvers: ['U0ALICE', 'U0BOB', 'S0SRE'],
    allowSelfApproval: false,
    ...policy,
  }));
  return { announcer, posts };
}

async function announce(policy: Partial<ApprovalPolicy>) {
  const { announcer, posts } = announcerWith(policy);
  await announcer.announce('job-4', 'approval-1', REQUEST, Date.UTC(2026, 11, 2, 6, 0));
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

  it('a reminder is broadcast from the thread, says when the request expires and links it', async () => {
    const { announcer, posts } = announcerWith({ approvers: ['U0ALICE', 'U0BOB'] });
    const expiresAt = Date.UTC(2026, 11, 2, 6, 30);
    await announcer.remind(
      'job-4',
      {
        state: { status: 'pending', id: 'a', fingerprint: 'f', expiresAt },
        request: REQUEST,
        messageTs: '1.0002',
      },
      { expiresAt, at: expiresAt - 15 * 60_000 },
    );
    expect(posts).toEqual([
      {
        channel: 'C0OPS',
        threadTs: '1.0001',
        broadcast: true,
        text: '⏰ job #4 still waits for approval of cilium.yml: it expires at 06:30 UTC (in 15m); see <https://lab/C0OPS/1.0002|the request> · <@U0BOB>',
      },
    ]);
  });
});
