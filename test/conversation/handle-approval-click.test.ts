import { describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { layOutDecision } from '../../src/bot/render-decision.js';
import type { SlackMessage, SlackPoster } from '../../src/bot/slack-poster.js';
import { handleApprovalClick } from '../../src/conversation/handle-approval-click.js';
import type { ClusterService, Decision } from '../../src/service/index.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';

const CLICK = {
  userId: 'U0BOB',
  decision: 'approve',
  value: 'job-1.rollout.x',
  channel: 'C0OPS',
  messageTs: '5.5',
} as const;

function recordingPoster() {
  const posts: SlackMessage[] = [];
  const updates: (SlackMessage & { ts: string })[] = [];
  const poster: SlackPoster = {
    async post(message) {
      posts.push(message);
      return '1.1';
    },
    async update(message) {
      updates.push(message);
    },
    async upload() {},
    permalink: () => '',
  };
  return { poster, posts, updates };
}

/** A service whose decide shows `decision` (as the real one does) and answers it. */
const deciding = (decision: Decision): Partial<ClusterService> => ({
  decide: async (_actor, _click, show) => {
    if (decision.kind !== 'already-counted') await show(decision);
    return decision;
  },
});

describe('handleApprovalClick', () => {
  it('asks the service to decide as the clicker, in the channel of the button', async () => {
    const { service, calls } = createFakeClusterService();
    const { poster } = recordingPoster();
    expect(await handleApprovalClick(CLICK, { marks: MRKDWN, layOutDecision, service, poster })).toBe(
      'Your approval is already counted; 1 more needed.',
    );
    expect(calls[0]!.args.slice(0, 2)).toEqual([
      { userId: 'U0BOB', channelId: 'C0OPS' },
      { decision: 'approve', value: 'job-1.rollout.x', messageTs: '5.5' },
    ]);
  });

  it('puts a counted approval into the job thread, and answers nothing more', async () => {
    const { service } = createFakeClusterService(
      deciding({
        kind: 'counted',
        userId: 'U0BOB',
        step: 'Cilium <rollout>',
        count: 1,
        required: 2,
        missing: 1,
        thread: { channel: 'C0OPS', threadTs: '1.0' },
      }),
    );
    const { poster, posts, updates } = recordingPoster();
    expect(
      await handleApprovalClick(CLICK, { marks: MRKDWN, layOutDecision, service, poster }),
    ).toBeUndefined();
    expect(posts).toEqual([
      {
        channel: 'C0OPS',
        threadTs: '1.0',
        text: '👍 <@U0BOB> approved Cilium &lt;rollout&gt; (1/2); 1 more needed.',
      },
    ]);
    expect(updates).toEqual([]);
  });

  it('replaces the buttons with the decision', async () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    const { service } = createFakeClusterService(
      deciding({
        kind: 'decided',
        verdict: 'rejected',
        at,
        stored: { state: { status: 'rejected', id: 'a', by: 'U0BOB' }, decidedAt: at, messageTs: '5.5' },
        thread: { channel: 'C0OPS', threadTs: '1.0' },
      }),
    );
    const { poster, updates } = recordingPoster();
    expect(
      await handleApprovalClick(CLICK, { marks: MRKDWN, layOutDecision, service, poster }),
    ).toBeUndefined();
    expect(updates).toMatchObject([
      { channel: 'C0OPS', ts: '5.5', text: '🚫 step rejected by <@U0BOB> at 2026-01-02 03:04:05 UTC' },
    ]);
  });

  it('a click on the App Home is decided as one on the message, and replaces the buttons in the thread', async () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    const { service, calls } = createFakeClusterService(
      deciding({
        kind: 'decided',
        verdict: 'approved',
        at,
        stored: {
          state: { status: 'approved', id: 'a', fingerprint: 'f', by: ['U0BOB'] },
          decidedAt: at,
          messageTs: '7.7',
        },
        thread: { channel: 'C0THREAD', threadTs: '1.0' },
      }),
    );
    const { poster, updates } = recordingPoster();
    const home = {
      userId: 'U0BOB',
      decision: 'approve',
      value: 'job-1.rollout.x',
      channel: 'C0OPS',
    } as const;
    expect(
      await handleApprovalClick(
        { ...home, onHome: true },
        { marks: MRKDWN, layOutDecision, service, poster },
      ),
    ).toBeUndefined();
    expect(calls[0]!.args[1]).toEqual({ decision: 'approve', value: 'job-1.rollout.x', onHome: true });
    expect(updates).toMatchObject([
      { channel: 'C0THREAD', ts: '7.7', text: expect.stringMatching(/approved by <@U0BOB>/) },
    ]);
  });

  it('answers a refused click in words', async () => {
    const { service } = createFakeClusterService({ decide: async () => ({ code: 'NO_SUCH_APPROVAL' }) });
    const { poster, posts } = recordingPoster();
    expect(await handleApprovalClick(CLICK, { marks: MRKDWN, layOutDecision, service, poster })).toBe(
      '⛔ This button does not match a pending approval; nothing changed.',
    );
    expect(posts).toEqual([]);
  });
});
