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
function announcerWith(policy: Partial<ApprovalPolicy>, refusedDm?: string) {
  const { poster, posts } = createRecordingPoster();
  const post: typeof poster.post = async (message) => {
    const ts = await poster.post(message);
    // Slack's answer for a user the bot may not message (posted, then refused: the record shows it tried).
    if (message.channel === refusedDm)
      throw Object.assign(new Error('user_not_found'), { code: 'slack_webapi_platform_error' });
    return ts;
  };
  const threadOf = async () => ({
    channel: 'C0OPS',
    threadTs: '1.0001',
    jobNumber: 4,
    requestedBy: 'U0ALICE',
  });
  const linked = {
    ...poster,
    post,
    permalink: (channel: string, ts: string) => `https://lab/${channel}/${ts}`,
  };
  const announcer = createSlackAnnouncer(linked, threadOf, () => ({
    timeoutMs: 30 * 60_000,
    approvers: ['U0ALICE', 'U0BOB', 'S0SRE'],
    allowSelfApproval: false,
    notifyApprovers: 'mention',
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

/** A reminder of job-4's pending request (message 1.0002), `minutes` before it expires. */
const remindBefore = (
  announcer: ReturnType<typeof announcerWith>['announcer'],
  expiresAt: number,
  minutes: number,
) =>
  announcer.remind(
    'job-4',
    {
      state: { status: 'pending', id: 'a', fingerprint: 'f', expiresAt },
      request: REQUEST,
      messageTs: '1.0002',
    },
    { expiresAt, at: expiresAt - minutes * 60_000 },
  );

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
    await remindBefore(announcer, expiresAt, 15);
    expect(posts).toEqual([
      {
        channel: 'C0OPS',
        threadTs: '1.0001',
        broadcast: true,
        text: '⏰ job #4 still waits for approval of cilium.yml: it expires at 06:30 UTC (in 15m); see <https://lab/C0OPS/1.0002|the request> · <@U0BOB>',
      },
    ]);
  });

  it('with dm, messages each user approver directly after the request (never the requester), and mentions only groups', async () => {
    const { announcer, posts } = announcerWith({
      notifyApprovers: 'dm',
      approvers: ['U0ALICE', 'U0BOB', 'U0CAROL', 'S0SRE'],
    });
    await announcer.announce('job-4', 'approval-1', REQUEST, Date.UTC(2026, 11, 2, 6, 0));
    const [request, ...direct] = posts;
    expect(request!.text).toBe('⏸ approval needed for cilium.yml (job #4) · <!subteam^S0SRE>');
    // The console numbers it by this, never by reading Slack's buttons back.
    expect(request!.asks?.approvalId).toBe('approval-1');
    expect(request!.asks?.title).toBe('job #4, cilium.yml');
    expect(JSON.stringify(request!.blocks)).toContain(JSON.stringify(request!.asks?.request));
    expect(JSON.stringify(request!.blocks)).toContain(
      '*Who can approve:* <!subteam^S0SRE> · 2 told by direct message',
    );
    expect(direct.map((dm) => dm.channel)).toEqual(['U0BOB', 'U0CAROL']);
    expect(direct[0]!.text).toMatch(
      /^⏸ job #4 on dev waits for your approval of cilium\.yml: see <https:\/\/lab\/C0OPS\/.+\|the request> \(expires in 30m\)$/,
    );
    expect(direct[0]!.threadTs).toBeUndefined();
  });

  it('with both, mentions everyone in the thread and messages the users too; mention (the default) sends no DM', async () => {
    const both = announcerWith({ notifyApprovers: 'both' });
    await both.announcer.announce('job-4', 'approval-1', REQUEST, 0);
    expect(both.posts.map((post) => post.channel)).toEqual(['C0OPS', 'U0BOB']);
    expect(both.posts[0]!.text).toContain('<@U0BOB> <!subteam^S0SRE>');
    const mention = announcerWith({});
    await mention.announcer.announce('job-4', 'approval-1', REQUEST, 0);
    expect(mention.posts.map((post) => post.channel)).toEqual(['C0OPS']);
  });

  it('a reminder reaches the DM too with dm, and a refused DM does not stop the others', async () => {
    const { announcer, posts } = announcerWith(
      { notifyApprovers: 'dm', approvers: ['U0GONE', 'U0BOB'] },
      'U0GONE',
    );
    const expiresAt = Date.UTC(2026, 11, 2, 6, 30);
    await remindBefore(announcer, expiresAt, 5);
    expect(posts.map((post) => post.channel)).toEqual(['C0OPS', 'U0GONE', 'U0BOB']);
    expect(posts[2]!.text).toContain(
      'still waits for approval of cilium.yml: it expires at 06:30 UTC (in 5m)',
    );
  });
});
