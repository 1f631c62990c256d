import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAnnouncer } from '../../src/bot/create-slack-announcer.js';
import { createWebApiPoster } from '../../src/bot/create-web-api-poster.js';
import { createSlackPacer } from '../../src/delivery/create-slack-pacer.js';
import type { ApprovalRequest } from '../../src/lifecycle/ports/approval-desk.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { systemClock } from '../../src/system-clock.js';
import { type FakeSlack, startFakeSlack } from '../lab/fake-slack/index.js';
import { labMs } from '../support/lab-time.js';

const BOT_TOKEN = 'xoxb-1111-2222-approverdms';

const REQUEST: ApprovalRequest = {
  stepId: '4-cilium',
  stepTitle: 'cilium.yml',
  cluster: 'prod',
  reason: 'rolls the CNI',
  binding: {
    commandLine: 'ansible-playbook playbooks/cilium.yml -e k3s_hosts=k3s_prod',
    targets: 'k3s-prod-1',
    fingerprint: 'f00d',
  },
};

let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack({
    botToken: BOT_TOKEN,
    channels: ['C0OPS'],
    users: { U0ALICE: { name: 'alice' }, U0BOB: { name: 'bob' }, U0CAROL: { name: 'carol' } },
  });
}, labMs(30_000));
afterAll(async () => {
  await slack?.close();
});

describe('approvers told by direct message (notifyApprovers: both), through Slack itself', () => {
  it('each user approver but the requester gets the request and both reminders in their DM, paced under Slack’s limits', async () => {
    // Retries as in production (src/app/slack-client.ts retries a 429 itself).
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl });
    const poster = createWebApiPoster(
      client,
      createRedactor(),
      'https://lab.slack.com/',
      createSlackPacer(systemClock),
    );
    const root = await poster.post({ channel: 'C0OPS', text: 'up prod · job #7' });
    const announcer = createSlackAnnouncer(
      poster,
      async () => ({ channel: 'C0OPS', threadTs: root, jobNumber: 7, requestedBy: 'U0ALICE' }),
      () => ({
        timeoutMs: 30 * 60_000,
        // U0GONE left the workspace: Slack refuses the DM, the others still go out.
        approvers: ['U0ALICE', 'U0GONE', 'U0BOB', 'U0CAROL', 'S0PRODOPS'],
        allowSelfApproval: false,
        notifyApprovers: 'both',
      }),
    );
    const expiresAt = Date.now() + 30 * 60_000;
    const messageTs = await announcer.announce('job-7', 'job-7.4-cilium.x', REQUEST, expiresAt);
    const stored = {
      state: { status: 'pending' as const, id: 'job-7.4-cilium.x', fingerprint: 'f00d', expiresAt },
      request: REQUEST,
      messageTs,
    };
    await announcer.remind('job-7', stored, { expiresAt, at: expiresAt - 15 * 60_000 });
    await announcer.remind('job-7', stored, { expiresAt, at: expiresAt - 5 * 60_000 });

    for (const approver of ['U0BOB', 'U0CAROL']) {
      const texts = slack.directMessages(approver).map((message) => message.text);
      expect(texts).toHaveLength(3);
      expect(texts[0]).toContain(
        `waits for your approval of cilium.yml: see <https://lab.slack.com/archives/C0OPS/p${messageTs!.replace('.', '')}|the request>`,
      );
      expect(texts[1]).toContain('(in 15m)');
      expect(texts[2]).toContain('(in 5m)');
    }
    expect(slack.directMessages('U0ALICE')).toEqual([]);
    // The thread still names everyone (group included) and is broadcast.
    const request = slack.message('C0OPS', messageTs!)!;
    expect(request.text).toBe(
      '⏸ approval needed for cilium.yml (job #7) · <@U0GONE> <@U0BOB> <@U0CAROL> <!subteam^S0PRODOPS>',
    );
    const posts = slack.callsTo('chat.postMessage');
    // No DM was sent into Slack's per-channel limit (the thread's fourth post in a second can be: see the report).
    expect(posts.filter((call) => call.rateLimited && call.args.channel !== 'C0OPS')).toEqual([]);
    expect(
      posts.filter((call) => !call.ok && !call.rateLimited).map((call) => [call.args.channel, call.error]),
    ).toEqual([
      ['U0GONE', 'channel_not_found'],
      ['U0GONE', 'channel_not_found'],
      ['U0GONE', 'channel_not_found'],
    ]);
  });
});
