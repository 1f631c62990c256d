import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel, verifySlackRequest } from '@slack/bolt';
import { SocketModeClient } from '@slack/socket-mode';
import { ErrorCode, type WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import {
  createSlackDriver,
  type FakeSlack,
  type FakeSlackOptions,
  startFakeSlack,
} from './fake-slack/index.js';

const botToken = 'xoxb-fake-bot-token';
const appToken = 'xapp-fake-app-token';
const signingSecret = 'fake-signing-secret';
const channel = 'C0OPS';

const cleanups = cleanupAfterEach();

async function fakeSlack(options: Partial<FakeSlackOptions> = {}): Promise<FakeSlack> {
  const slack = await startFakeSlack({
    botToken,
    appToken,
    channels: [{ id: channel, name: 'ops' }, 'C0OTHER'],
    users: { U0ALICE: { name: 'alice', realName: 'Alice Ops' }, U0BOB: { name: 'bob' } },
    userGroups: { S0PLATFORM: ['U0ALICE'] },
    ...options,
  });
  cleanups.push(() => slack.close());
  return slack;
}

function webClient(slack: FakeSlack, options: ConstructorParameters<typeof WebClient>[1] = {}): WebClient {
  return new WebClient(botToken, {
    slackApiUrl: slack.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 3, factor: 1, minTimeout: 10, maxTimeout: 50 },
    ...options,
  });
}

const approvalBlocks = [
  { type: 'section', text: { type: 'mrkdwn', text: '*Upgrade k3s on lab-1?*' } },
  {
    type: 'actions',
    elements: [
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Approve' },
        action_id: 'approve',
        value: 'job-42',
      },
      { type: 'button', text: { type: 'plain_text', text: 'Reject' }, value: 'job-42', style: 'danger' },
    ],
  },
];

/** A real Bolt app over HTTP on a free loopback port. */
async function boltHttpApp(slack: FakeSlack): Promise<{ app: App; eventsUrl: string }> {
  const app = new App({
    token: botToken,
    signingSecret,
    clientOptions: { slackApiUrl: slack.apiUrl },
    logLevel: LogLevel.ERROR,
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  cleanups.push(() => app.stop());
  const { port } = server.address() as AddressInfo;
  return { app, eventsUrl: `http://127.0.0.1:${port}/slack/events` };
}

describe('fake Slack Web API with the real WebClient', () => {
  it('posts, threads, updates with history, reads replies and checks auth', async () => {
    const slack = await fakeSlack();
    const client = webClient(slack);

    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, team_id: 'T0LAB', user_id: 'U0BOT', bot_id: 'B0BOT' });

    const root = await client.chat.postMessage({ channel, text: 'Upgrade started', blocks: approvalBlocks });
    expect(root.ts).toMatch(/^\d{10}\.\d{6}$/);
    const reply = await client.chat.postMessage({ channel, thread_ts: root.ts!, text: 'step 1/3 done' });
    expect(Number(reply.ts)).toBeGreaterThan(Number(root.ts));
    await client.chat.update({ channel, ts: root.ts!, text: 'Upgrade finished', blocks: [] });

    expect(slack.messages(channel).map((m) => m.text)).toEqual(['Upgrade finished']);
    expect(slack.replies(channel, root.ts!).map((m) => m.text)).toEqual(['step 1/3 done']);
    const history = slack.message(channel, root.ts!)!.history;
    expect(history.map((v) => [v.text, v.via])).toEqual([
      ['Upgrade started', 'chat.postMessage'],
      ['Upgrade finished', 'chat.update'],
    ]);
    expect(history[0]!.blocks?.[1]).toMatchObject({ type: 'actions', block_id: expect.any(String) });

    const thread = await client.conversations.replies({ channel, ts: root.ts! });
    expect(thread.messages?.map((m) => m.text)).toEqual(['Upgrade finished', 'step 1/3 done']);

    await expect(client.chat.update({ channel, ts: '1.000000', text: 'x' })).rejects.toMatchObject({
      data: { error: 'message_not_found' },
    });
    await expect(client.chat.postMessage({ channel: 'C0NOPE', text: 'x' })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    });
    await expect(
      new WebClient('xoxb-wrong', { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR }).auth.test(),
    ).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    expect(slack.callsTo('chat.postMessage')).toHaveLength(3);
  });

  it('answers 429 with Retry-After past the tier, and WebClient waits it out', async () => {
    const slack = await fakeSlack({ rateLimits: { 'chat.update': { perMinute: 2, windowMs: 1_500 } } });
    const client = webClient(slack);
    const { ts } = await client.chat.postMessage({ channel, text: 'v0' });

    for (const text of ['v1', 'v2', 'v3']) await client.chat.update({ channel, ts: ts!, text });

    expect(slack.rateLimitedCount('chat.update')).toBeGreaterThanOrEqual(1);
    const updates = slack.callsTo('chat.update');
    const limited = updates.find((c) => c.rateLimited)!;
    const retried = updates.find((c) => c.ok && c.at > limited.at)!;
    expect(limited.status).toBe(429);
    expect(retried.at - limited.at).toBeGreaterThanOrEqual(900);
    expect(slack.message(channel, ts!)!.text).toBe('v3');

    // Three more calls straight away: the window holds two, so one of them must be refused.
    const responses: Response[] = [];
    for (const text of ['v4', 'v5', 'v6']) {
      const query = new URLSearchParams({ channel, ts: ts!, text });
      responses.push(
        await fetch(`${slack.apiUrl}chat.update?${query}`, {
          headers: { authorization: `Bearer ${botToken}` },
        }),
      );
    }
    const over = responses.find((r) => r.status === 429)!;
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('limits chat.postMessage per channel after a short burst', async () => {
    // A frozen clock: the bucket cannot refill however slowly the machine runs the burst.
    const slack = await fakeSlack({ now: () => 1_764_400_000_000 });
    const client = webClient(slack, { rejectRateLimitedCalls: true });
    for (let i = 0; i < 3; i += 1) await client.chat.postMessage({ channel, text: `burst ${i}` });

    const error = (await client.chat.postMessage({ channel, text: 'one too many' }).catch((e) => e)) as
      | WebAPIRateLimitedError
      | undefined;
    expect(error?.code).toBe(ErrorCode.RateLimitedError);
    expect(error?.retryAfter).toBeGreaterThanOrEqual(1);
    await expect(
      client.chat.postMessage({ channel: 'C0OTHER', text: 'other channel' }),
    ).resolves.toMatchObject({
      ok: true,
    });
  });

  it('injects outages, storms and latency', async () => {
    const slack = await fakeSlack();
    const client = webClient(slack);
    slack.failNext('chat.postMessage', { status: 503, count: 2 });
    await client.chat.postMessage({ channel, text: 'after outage' });
    expect(slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([503, 503, 200]);

    slack.stormRateLimit('*', { retryAfterSec: 1, durationMs: 500 });
    const strict = webClient(slack, { rejectRateLimitedCalls: true });
    await expect(strict.auth.test()).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 1,
    });

    slack.reset();
    slack.setLatency(150);
    const started = performance.now();
    await client.auth.test();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('records ephemerals and honours the response_url use limit', async () => {
    const slack = await fakeSlack();
    const sent = await fetch(`${slack.apiUrl}chat.postEphemeral`, {
      method: 'POST',
      headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel, user: 'U0BOB', text: 'only you can see this' }),
    });
    expect(await sent.json()).toMatchObject({ ok: true, message_ts: expect.any(String) });

    const url = slack.createResponseUrl({ kind: 'slash_commands', channel, userId: 'U0ALICE' });
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const statuses = [(await post({ text: 'visible to all', response_type: 'in_channel' })).status];
    for (let i = 0; i < 5; i += 1) statuses.push((await post({ text: `ephemeral ${i}` })).status);

    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(slack.messages(channel).map((m) => m.text)).toEqual(['visible to all']);
    expect(slack.ephemerals.map((e) => [e.user, e.text, e.via])).toEqual([
      ['U0BOB', 'only you can see this', 'chat.postEphemeral'],
      ['U0ALICE', 'ephemeral 0', 'response_url'],
      ['U0ALICE', 'ephemeral 1', 'response_url'],
      ['U0ALICE', 'ephemeral 2', 'response_url'],
      ['U0ALICE', 'ephemeral 3', 'response_url'],
    ]);
    expect(slack.responseUrlPosts.at(-1)).toMatchObject({ outcome: 'rejected', error: 'used_url' });
  });

  it('serves filesUploadV2 into a thread, user groups and users', async () => {
    const slack = await fakeSlack();
    const client = webClient(slack);
    const { ts } = await client.chat.postMessage({ channel, text: 'Upgrade failed' });

    const result = await client.filesUploadV2({
      channel_id: channel,
      thread_ts: ts!,
      content: 'TASK [k3s : restart] fatal: unreachable\n',
      filename: 'ansible.log',
      title: 'Ansible log',
      initial_comment: 'Full log',
    });
    expect(result.ok).toBe(true);
    expect(slack.files).toEqual([
      expect.objectContaining({
        title: 'Ansible log',
        filename: 'ansible.log',
        content: 'TASK [k3s : restart] fatal: unreachable\n',
        channel,
        thread_ts: ts,
      }),
    ]);
    expect(slack.replies(channel, ts!)).toEqual([
      expect.objectContaining({
        text: 'Full log',
        files: [expect.objectContaining({ title: 'Ansible log' })],
      }),
    ]);

    await expect(client.usergroups.users.list({ usergroup: 'S0PLATFORM' })).resolves.toMatchObject({
      users: ['U0ALICE'],
    });
    await expect(client.users.info({ user: 'U0ALICE' })).resolves.toMatchObject({
      user: { id: 'U0ALICE', name: 'alice', real_name: 'Alice Ops' },
    });
  });
});

describe('Slack driver against a real Bolt app', () => {
  it('signs like Slack: Bolt verifies it, rejects bad signatures, sees retries and replays', async () => {
    const slack = await fakeSlack();
    const { app, eventsUrl } = await boltHttpApp(slack);
    const seen: Array<{ text: string; retryNum: number | undefined }> = [];
    app.command('/cluster', async ({ ack, command, respond, context }) => {
      await ack();
      seen.push({ text: command.text, retryNum: context.retryNum });
      await respond({ text: `queued ${command.text}` });
    });
    const driver = createSlackDriver({ slack, eventsUrl, signingSecret });

    const first = await driver.slash('upgrade lab-1', { userId: 'U0ALICE', channelId: channel });
    expect(first.status).toBe(200);
    const headers = first.request.headers;
    expect(() =>
      verifySlackRequest({
        signingSecret,
        body: first.request.body,
        headers: {
          'x-slack-signature': headers['x-slack-signature']!,
          'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
        },
      }),
    ).not.toThrow();
    const ephemeral = await slack.waitFor(() =>
      slack.ephemerals.find((e) => e.text === 'queued upgrade lab-1'),
    );
    expect(ephemeral).toMatchObject({ user: 'U0ALICE', channel, via: 'response_url' });

    const bad = await driver.slash('upgrade lab-1', {
      userId: 'U0ALICE',
      channelId: channel,
      signature: 'bad',
    });
    const stale = await driver.slash('x', {
      userId: 'U0ALICE',
      channelId: channel,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    const missing = await driver.sendRaw({
      body: first.request.body,
      headers: { 'content-type': 'text/plain' },
    });
    expect([bad.status, stale.status, missing.status]).toEqual([401, 401, 401]);

    await driver.slash('status', {
      userId: 'U0BOB',
      channelId: channel,
      retryNum: 1,
      retryReason: 'http_timeout',
    });
    const replay = await driver.resend(first);
    expect(replay.status).toBe(200);
    await slack.waitFor(() => slack.responseUrlPosts.length === 3);
    expect(seen).toEqual([
      { text: 'upgrade lab-1', retryNum: undefined },
      { text: 'status', retryNum: 1 },
      { text: 'upgrade lab-1', retryNum: undefined },
    ]);
  });

  it('clicks a button by its label and the app sees a block_actions payload', async () => {
    const slack = await fakeSlack();
    const { app, eventsUrl } = await boltHttpApp(slack);
    const client = webClient(slack);
    const root = await client.chat.postMessage({ channel, text: 'Upgrade requested' });
    const approval = await client.chat.postMessage({
      channel,
      thread_ts: root.ts!,
      text: 'Approval needed',
      blocks: approvalBlocks,
    });
    const clicks: unknown[] = [];
    app.action('approve', async ({ ack, body, action, respond }) => {
      await ack();
      clicks.push({ body, action });
      await respond({ replace_original: true, text: 'Approved by alice' });
    });
    const driver = createSlackDriver({ slack, eventsUrl, signingSecret });

    const response = await driver.click({
      channel,
      where: { textIncludes: 'Upgrade k3s on lab-1' },
      button: { text: 'Approve' },
      userId: 'U0ALICE',
    });
    expect(response.status).toBe(200);
    await slack.waitFor(() => slack.message(channel, approval.ts!)?.text === 'Approved by alice');
    expect(clicks[0]).toMatchObject({
      action: { type: 'button', action_id: 'approve', value: 'job-42', text: { text: 'Approve' } },
      body: {
        type: 'block_actions',
        user: { id: 'U0ALICE', username: 'alice' },
        container: { type: 'message', message_ts: approval.ts, channel_id: channel, is_ephemeral: false },
        channel: { id: channel, name: 'ops' },
        message: { ts: approval.ts, thread_ts: root.ts, blocks: expect.any(Array) },
        response_url: response.responseUrl,
      },
    });
    expect(slack.message(channel, approval.ts!)!.history.at(-1)!.via).toBe('response_url');

    await expect(
      driver.click({ channel, where: { ts: approval.ts! }, button: { text: 'Retry' }, userId: 'U0ALICE' }),
    ).rejects.toThrow(/no buttons|"Approve"/);
    await expect(
      driver.click({
        channel,
        where: { textIncludes: 'nothing like this' },
        button: { text: 'x' },
        userId: 'U0BOB',
      }),
    ).rejects.toThrow(/No message/);
  });
});

describe('App Home: views.publish, app_home_opened and Home clicks', () => {
  const home = (blocks: unknown[]) => ({ type: 'home', blocks }) as never;

  it('keeps each published Home per user, refuses what Slack refuses, and limits the rate', async () => {
    const slack = await fakeSlack({ rateLimits: { 'views.publish': { perMinute: 4, windowMs: 60_000 } } });
    const client = webClient(slack, { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
    await client.views.publish({ user_id: 'U0ALICE', view: home(approvalBlocks) });
    expect(slack.homeViews('U0ALICE')).toMatchObject([
      { user: 'U0ALICE', blocks: [{ type: 'section' }, { type: 'actions' }] },
    ]);
    expect(slack.homeViews('U0BOB')).toEqual([]);

    const refused = (view: unknown, user = 'U0ALICE') =>
      client.views.publish({ user_id: user, view: view as never }).then(
        () => 'ok',
        (error: { data?: { error?: string; response_metadata?: { messages?: string[] } } }) =>
          `${error.data?.error} ${error.data?.response_metadata?.messages?.join(' ') ?? ''}`.trim(),
      );
    expect(await refused({ type: 'modal', blocks: [] })).toMatch(/invalid_arguments .*home/);
    expect(await refused(home(Array.from({ length: 101 }, () => ({ type: 'divider' }))))).toMatch(
      /more than 100 blocks/,
    );
    expect(await refused(home(approvalBlocks), 'U0NOBODY')).toBe('user_not_found');
    // Refused calls count against the window too: the fifth call of the minute is a 429.
    await expect(
      client.views.publish({ user_id: 'U0BOB', view: home(approvalBlocks) }),
    ).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
    });
    expect(slack.homeViews('U0BOB')).toEqual([]);
  });

  for (const transport of ['http', 'socket'] as const) {
    it(`delivers app_home_opened and clicks on a Home button to a Bolt app (${transport})`, async () => {
      const slack = await fakeSlack();
      const app =
        transport === 'http'
          ? await boltHttpApp(slack)
          : {
              app: new App({
                token: botToken,
                appToken,
                socketMode: true,
                clientOptions: { slackApiUrl: slack.apiUrl },
                logLevel: LogLevel.ERROR,
              }),
              eventsUrl: 'socket',
            };
      const opened: string[] = [];
      const clicked: unknown[] = [];
      app.app.event('app_home_opened', async ({ event, client }) => {
        opened.push(`${event.user} ${event.tab}`);
        await client.views.publish({ user_id: event.user, view: home(approvalBlocks) });
      });
      app.app.action('approve', async ({ ack, body, action }) => {
        await ack();
        clicked.push({ body, action });
      });
      if (transport === 'socket') {
        await app.app.start();
        cleanups.push(async () => {
          await app.app.stop();
          await slack.waitFor(() => slack.socket.openConnections === 0);
        });
        await slack.waitFor(() => slack.socket.openConnections > 0);
      }
      const driver = createSlackDriver({ slack, eventsUrl: app.eventsUrl, signingSecret });

      expect((await driver.homeOpened('U0BOB')).status).toBe(200);
      await slack.waitFor(() => slack.homeViews('U0BOB').length === 1);
      expect(opened).toEqual(['U0BOB home']);
      await driver.clickHome({ userId: 'U0BOB', button: { text: 'Approve' }, editValue: () => 'forged' });
      await slack.waitFor(() => clicked.length === 1);
      expect(clicked[0]).toMatchObject({
        action: { action_id: 'approve', value: 'forged' },
        body: {
          type: 'block_actions',
          user: { id: 'U0BOB' },
          container: { type: 'view' },
          view: { type: 'home' },
        },
      });
      await expect(driver.clickHome({ userId: 'U0ALICE', button: { text: 'Approve' } })).rejects.toThrow(
        /No Home view was published to U0ALICE/,
      );
    });
  }
});

describe('Socket Mode', () => {
  it('delivers envelopes to a Bolt socket-mode app and records the acks', async () => {
    const slack = await fakeSlack();
    const app = new App({
      token: botToken,
      appToken,
      socketMode: true,
      clientOptions: { slackApiUrl: slack.apiUrl },
      logLevel: LogLevel.ERROR,
    });
    app.command('/cluster', async ({ ack, command }) => {
      await ack({ text: `ack ${command.text}` });
    });
    await app.start();
    cleanups.push(async () => {
      // Bolt's stop() does not wait for the close handshake; the fake's socket count does.
      await app.stop();
      await slack.waitFor(() => slack.socket.openConnections === 0);
    });
    const driver = createSlackDriver({ slack, eventsUrl: 'socket', signingSecret });

    const response = await driver.slash('status lab-1', { userId: 'U0ALICE', channelId: channel });
    expect(response.status).toBe(200);
    expect(response.ack?.payload).toMatchObject({ text: 'ack status lab-1' });
    expect(slack.socketAcks.map((a) => a.envelope_id)).toEqual([response.request.envelope!.envelopeId]);
  });

  it('asks the client to reconnect and it comes back', async () => {
    const slack = await fakeSlack();
    const client = new SocketModeClient({
      appToken,
      clientOptions: { slackApiUrl: slack.apiUrl },
      logLevel: LogLevel.ERROR,
      clientPingTimeout: 300,
    });
    client.on('interactive', async ({ ack }) => ack());
    await client.start();
    cleanups.push(() => client.disconnect());

    slack.disconnectSocket();
    await slack.waitFor(
      () => slack.callsTo('apps.connections.open').length === 2 && slack.socket.openConnections === 1,
      {
        description: 'a second Socket Mode connection',
      },
    );
    const delivery = await slack.socket.deliver('interactive', { type: 'block_actions', actions: [] });
    expect(delivery.ack?.envelope_id).toBe(delivery.envelopeId);
  });
});
