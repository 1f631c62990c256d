import { randomBytes, randomInt } from 'node:crypto';
import { directChannelOf } from './create-directory.js';
import type { Delivery, EnvelopeType } from './create-socket-mode-server.js';
import type { HomeViewRecord, SlackMessage, SocketAck } from './fake-slack-types.js';
import {
  type ButtonSelector,
  describeButtons,
  type FoundButton,
  findButton,
  listButtons,
  visibleText,
} from './find-button.js';
import { signSlackRequest } from './sign-slack-request.js';
import type { FakeSlack } from './start-fake-slack.js';

export interface SlackDriverOptions {
  slack: FakeSlack;
  /** The bot's `http://127.0.0.1:P/slack/events`, or 'socket' to deliver over the fake's Socket Mode. */
  eventsUrl: string;
  signingSecret: string;
  teamId?: string;
  apiAppId?: string;
  command?: string;
  /** The legacy verification token Slack still puts in every payload. */
  verificationToken?: string;
  requestTimeoutMs?: number;
}

export interface SlashOptions {
  userId: string;
  userName?: string;
  channelId: string;
  retryNum?: number;
  retryReason?: string;
  /** Unix seconds for X-Slack-Request-Timestamp (e.g. 10 minutes ago for a stale request). */
  timestamp?: number;
  /** 'bad': signed with a wrong secret; 'missing': no signature header; any other string: sent as is. */
  signature?: 'bad' | 'missing' | string;
  /** Extra or replacing form fields. */
  body?: Record<string, string>;
}

export interface ClickOptions {
  channel: string;
  where: { ts: string } | { textIncludes: string };
  button: ButtonSelector;
  userId: string;
  userName?: string;
  /** Tamper with the button's value before sending, as a forged click would. */
  editValue?: (value: string) => string;
  /** The message as the clicker's client still shows it (a stale copy), instead of its current state. */
  shown?: SlackMessage;
  retryNum?: number;
  retryReason?: string;
  signature?: SlashOptions['signature'];
}

export interface HomeClickOptions {
  /** Whose Home tab: the button is looked up in the last view published to them. */
  userId: string;
  button: ButtonSelector;
  /** Which of several matching buttons (0: the first), e.g. one "Verify now" per cluster. */
  index?: number;
  /** Tamper with the button's value before sending, as a forged click would. */
  editValue?: (value: string) => string;
  /** Take the button from this person's Home instead: a forged click by someone shown no button. */
  buttonFrom?: string;
  /** A view published earlier, still on the clicker's screen (a stale tab), instead of the last one. */
  shown?: HomeViewRecord;
}

export interface SentRequest {
  body: string;
  headers: Record<string, string>;
  envelope?: { type: EnvelopeType; payload: unknown; envelopeId: string };
}

export interface DriverResponse {
  /** HTTP status from the bot; over Socket Mode 200 when acked, 0 when no ack came within 3 s. */
  status: number;
  body: string;
  latencyMs: number;
  responseUrl: string;
  request: SentRequest;
  ack?: SocketAck;
}

export interface SlackDriver {
  slash(text: string, options: SlashOptions): Promise<DriverResponse>;
  click(options: ClickOptions): Promise<DriverResponse>;
  /** The person opens the app's Home tab: an `app_home_opened` event (Events API, or Socket Mode). */
  homeOpened(userId: string): Promise<Omit<DriverResponse, 'responseUrl'>>;
  /** A click on a button of the person's Home tab (block_actions from a view: no channel, no response_url). */
  clickHome(options: HomeClickOptions): Promise<Omit<DriverResponse, 'responseUrl'>>;
  /** Sends the previous request's exact bytes and headers again: a replay (or Socket Mode redelivery). */
  resend(previous: DriverResponse): Promise<DriverResponse>;
  /** Posts arbitrary bytes to the events URL, for forged or malformed requests. */
  sendRaw(request: {
    body: string;
    headers: Record<string, string>;
  }): Promise<Omit<DriverResponse, 'responseUrl'>>;
  /** Headers Slack would send with this body. */
  signedHeaders(
    body: string,
    options?: Pick<SlashOptions, 'timestamp' | 'signature'>,
  ): Record<string, string>;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`Slack driver only talks to loopback addresses, not ${host}`);
  }
}

function triggerId(): string {
  return `${randomInt(1e9, 1e10)}.${randomInt(1e8, 1e9)}.${randomBytes(16).toString('hex')}`;
}

function locate(slack: FakeSlack, channel: string, where: ClickOptions['where']): SlackMessage {
  const messages = slack.allMessages(channel);
  const found =
    'ts' in where
      ? messages.find((m) => m.ts === where.ts)
      : messages.filter((m) => visibleText(m).includes(where.textIncludes)).at(-1);
  if (found) return found;
  const seen = messages
    .slice(-10)
    .map((m) => `  ${m.ts}: "${visibleText(m).slice(0, 60).replaceAll('\n', ' ')}" [${describeButtons(m)}]`);
  throw new Error(
    `No message ${JSON.stringify(where)} in ${channel}. Last messages:\n${seen.join('\n') || '  (none)'}`,
  );
}

/** Plays Slack's side towards the bot: signed slash commands and button clicks, over HTTP or Socket Mode. */
export function createSlackDriver(options: SlackDriverOptions): SlackDriver {
  const { slack, eventsUrl, signingSecret } = options;
  const socketMode = eventsUrl === 'socket';
  if (!socketMode) assertLoopback(eventsUrl);
  const teamId = options.teamId ?? slack.identity.teamId;
  const apiAppId = options.apiAppId ?? slack.identity.appId;
  const token = options.verificationToken ?? 'fake-verification-token';
  const timeoutMs = options.requestTimeoutMs ?? 10_000;

  function signedHeaders(body: string, signing: Pick<SlashOptions, 'timestamp' | 'signature'> = {}) {
    const timestamp = signing.timestamp ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
    };
    if (signing.signature === 'missing') return headers;
    headers['x-slack-signature'] =
      signing.signature === undefined || signing.signature === 'bad'
        ? signSlackRequest({
            signingSecret: signing.signature === 'bad' ? `${signingSecret}-wrong` : signingSecret,
            timestamp,
            body,
          })
        : signing.signature;
    return headers;
  }

  async function post(body: string, headers: Record<string, string>) {
    const started = performance.now();
    const response = await fetch(eventsUrl, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, body: text, latencyMs: performance.now() - started };
  }

  function fromDelivery(delivery: Delivery, request: SentRequest, responseUrl: string): DriverResponse {
    return {
      status: delivery.ack ? 200 : 0,
      body: delivery.ack?.payload ? JSON.stringify(delivery.ack.payload) : '',
      latencyMs: delivery.latencyMs,
      responseUrl,
      request,
      ...(delivery.ack && { ack: delivery.ack }),
    };
  }

  async function send(
    type: EnvelopeType,
    form: Record<string, string>,
    payload: unknown,
    transport: Pick<SlashOptions, 'retryNum' | 'retryReason' | 'timestamp' | 'signature'>,
    responseUrl: string,
  ): Promise<DriverResponse> {
    const body = new URLSearchParams(form).toString();
    if (socketMode) {
      const delivery = await slack.socket.deliver(type, payload, {
        ...(transport.retryNum !== undefined && { retryAttempt: transport.retryNum }),
        ...(transport.retryReason !== undefined && { retryReason: transport.retryReason }),
      });
      const envelope = { type, payload, envelopeId: delivery.envelopeId };
      return fromDelivery(delivery, { body, headers: {}, envelope }, responseUrl);
    }
    const headers = signedHeaders(body, transport);
    if (transport.retryNum !== undefined) {
      headers['x-slack-retry-num'] = String(transport.retryNum);
      headers['x-slack-retry-reason'] = transport.retryReason ?? 'http_timeout';
    }
    return { ...(await post(body, headers)), responseUrl, request: { body, headers } };
  }

  /** An Events API delivery: JSON over HTTP (signed) or an events_api envelope over Socket Mode. */
  async function sendEvent(payload: Record<string, unknown>): Promise<Omit<DriverResponse, 'responseUrl'>> {
    const body = JSON.stringify(payload);
    if (socketMode) {
      const delivery = await slack.socket.deliver('events_api', payload);
      const envelope = { type: 'events_api' as const, payload, envelopeId: delivery.envelopeId };
      const { responseUrl: _none, ...response } = fromDelivery(delivery, { body, headers: {}, envelope }, '');
      return response;
    }
    const headers = { ...signedHeaders(body), 'content-type': 'application/json' };
    return { ...(await post(body, headers)), request: { body, headers } };
  }

  /** A block_actions payload for a button click; `where` says what it was on (a message, a Home view). */
  function blockActions(
    userId: string,
    userName: string | undefined,
    button: FoundButton,
    value: string | undefined,
    where: Record<string, unknown>,
  ) {
    const name = userName ?? slack.userName(userId);
    return {
      type: 'block_actions',
      user: { id: userId, username: name, name, team_id: teamId },
      api_app_id: apiAppId,
      token,
      trigger_id: triggerId(),
      team: { id: teamId, domain: slack.identity.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
      ...where,
      actions: [
        {
          type: 'button',
          block_id: button.blockId,
          action_id: button.actionId,
          text: { type: 'plain_text', text: button.text, emoji: true },
          ...(value !== undefined && { value }),
          ...(button.style !== undefined && { style: button.style }),
          action_ts: (Date.now() / 1000).toFixed(6),
        },
      ],
    };
  }

  function homeButton(click: HomeClickOptions) {
    const owner = click.buttonFrom ?? click.userId;
    const view = click.shown ?? slack.homeViews(owner).at(-1);
    if (!view) throw new Error(`No Home view was published to ${owner}`);
    const selector = click.button;
    const matching = listButtons(view).filter((button) =>
      'actionId' in selector
        ? button.actionId === selector.actionId
        : button.text.trim().toLowerCase() === selector.text.trim().toLowerCase(),
    );
    const found = matching[click.index ?? 0];
    if (!found) {
      throw new Error(
        `No button ${JSON.stringify(click.button)} on ${owner}'s Home; it has ${describeButtons(view)}`,
      );
    }
    return { view, button: found };
  }

  return {
    signedHeaders,
    homeOpened(userId) {
      const view = slack.homeViews(userId).at(-1);
      return sendEvent({
        token,
        team_id: teamId,
        api_app_id: apiAppId,
        type: 'event_callback',
        event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
        event_time: Math.floor(Date.now() / 1000),
        event: {
          type: 'app_home_opened',
          user: userId,
          channel: directChannelOf(userId),
          tab: 'home',
          event_ts: (Date.now() / 1000).toFixed(6),
          ...(view && { view: { id: view.id, type: 'home', blocks: view.blocks } }),
        },
      });
    },
    async clickHome(click) {
      const { view, button } = homeButton(click);
      const value = click.editValue ? click.editValue(button.value ?? '') : button.value;
      const payload = blockActions(click.userId, undefined, button, value, {
        container: { type: 'view', view_id: view.id },
        view: { id: view.id, type: 'home', team_id: teamId, blocks: view.blocks, state: { values: {} } },
      });
      const { responseUrl: _none, ...response } = await send(
        'interactive',
        { payload: JSON.stringify(payload) },
        payload,
        {},
        '',
      );
      return response;
    },
    async slash(text, slash) {
      const responseUrl = slack.createResponseUrl({
        kind: 'slash_commands',
        channel: slash.channelId,
        userId: slash.userId,
      });
      // Field order as Slack sends it (bolt-js src/types/command).
      const form: Record<string, string> = {
        token,
        team_id: teamId,
        team_domain: slack.identity.teamDomain,
        channel_id: slash.channelId,
        channel_name: slack.channelName(slash.channelId),
        user_id: slash.userId,
        user_name: slash.userName ?? slack.userName(slash.userId),
        command: options.command ?? '/cluster',
        text,
        api_app_id: apiAppId,
        is_enterprise_install: 'false',
        response_url: responseUrl,
        trigger_id: triggerId(),
        ...slash.body,
      };
      return send('slash_commands', form, form, slash, responseUrl);
    },
    async click(click) {
      const message = click.shown ?? locate(slack, click.channel, click.where);
      const button = findButton(message, click.button);
      if (!button) {
        throw new Error(
          `No button ${JSON.stringify(click.button)} on message ${message.ts} in ${click.channel}; ` +
            `it has ${describeButtons(message)}`,
        );
      }
      const responseUrl = slack.createResponseUrl({
        kind: 'block_actions',
        channel: click.channel,
        userId: click.userId,
        messageTs: message.ts,
      });
      const { channel: _channel, ...messageFields } = message;
      const value = click.editValue ? click.editValue(button.value ?? '') : button.value;
      const payload = blockActions(click.userId, click.userName, button, value, {
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: click.channel,
          is_ephemeral: false,
          ...(message.thread_ts !== undefined && { thread_ts: message.thread_ts }),
        },
        channel: { id: click.channel, name: slack.channelName(click.channel) },
        message: messageFields,
        state: { values: {} },
        response_url: responseUrl,
      });
      return send('interactive', { payload: JSON.stringify(payload) }, payload, click, responseUrl);
    },
    async resend(previous) {
      const { envelope } = previous.request;
      if (envelope) {
        const delivery = await slack.socket.deliver(envelope.type, envelope.payload, {
          envelopeId: envelope.envelopeId,
        });
        return fromDelivery(delivery, previous.request, previous.responseUrl);
      }
      const response = await post(previous.request.body, previous.request.headers);
      return { ...response, responseUrl: previous.responseUrl, request: previous.request };
    },
    async sendRaw(request) {
      if (socketMode) throw new Error('sendRaw needs an HTTP events URL, not Socket Mode');
      return { ...(await post(request.body, request.headers)), request };
    },
  };
}
