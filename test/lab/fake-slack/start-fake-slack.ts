import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type WaitForOptions, waitFor } from '../../support/wait-for.js';
import { applyResponseUrlPost } from './apply-response-url-post.js';
import { createDirectory, type DirectoryOptions, directChannelOf } from './create-directory.js';
import { createFaultInjector, type FaultInjector } from './create-fault-injector.js';
import { createRateLimiter } from './create-rate-limiter.js';
import { createSlackState, type ResponseUrlTarget, type SlackIdentity } from './create-slack-state.js';
import { createSocketModeServer, type SocketModeServer } from './create-socket-mode-server.js';
import { defaultRateLimits, type RateLimitRule } from './default-rate-limits.js';
import type {
  CallRecord,
  EphemeralRecord,
  FileRecord,
  HomeViewRecord,
  MessageWithHistory,
  ResponseUrlPost,
  SlackMessage,
  SocketAck,
} from './fake-slack-types.js';
import { handleApiCall } from './handle-api-call.js';
import { type HttpReply, jsonReply, outageReply, writeReply } from './http-reply.js';
import { parseMultipart } from './parse-api-args.js';
import { readRequestBody } from './read-request-body.js';

export interface FakeSlackOptions extends DirectoryOptions, Partial<SlackIdentity> {
  botToken: string;
  /** App-level token (xapp-) accepted by apps.connections.open for Socket Mode. */
  appToken?: string;
  /** Per-method overrides merged over Slack's tiers, e.g. `{ 'chat.update': { perMinute: 10 } }`. */
  rateLimits?: Record<string, Partial<RateLimitRule>>;
  rateLimitsEnabled?: boolean;
  /** Seconds part of the first message ts; later ts values increase by 100 µs. */
  tsBase?: number;
  now?: () => number;
}

export type ResponseUrlFor = Omit<ResponseUrlTarget, 'id' | 'createdAt' | 'uses'>;

export interface FakeSlack
  extends Pick<FaultInjector, 'failNext' | 'stormRateLimit' | 'setLatency' | 'holdCalls'> {
  /** `http://127.0.0.1:PORT/api/`: give it to WebClient / Bolt as slackApiUrl. */
  readonly apiUrl: string;
  readonly baseUrl: string;
  readonly identity: SlackIdentity;
  readonly calls: readonly CallRecord[];
  readonly ephemerals: readonly EphemeralRecord[];
  readonly files: readonly FileRecord[];
  readonly responseUrlPosts: readonly ResponseUrlPost[];
  readonly socketAcks: readonly SocketAck[];
  /** Top-level messages of a channel, current versions, oldest first. */
  messages(channel: string): SlackMessage[];
  /** Replies in a thread (without the parent), oldest first. */
  replies(channel: string, threadTs: string): SlackMessage[];
  /** Roots and replies of a channel, oldest first. */
  allMessages(channel: string): SlackMessage[];
  message(channel: string, ts: string): MessageWithHistory | undefined;
  /** What the bot sent a user by direct message (chat.postMessage to their id), oldest first. */
  directMessages(userId: string): SlackMessage[];
  /** Every Home view published to the user (views.publish), oldest first; the last is what they see. */
  homeViews(userId: string): HomeViewRecord[];
  callsTo(method: string): CallRecord[];
  callsByMethod(): Record<string, CallRecord[]>;
  rateLimitedCount(method?: string): number;
  waitFor<T>(
    probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    options?: WaitForOptions & { readonly description?: string },
  ): Promise<T>;
  /** A response_url on this server for a slash command or a click; the driver calls it. */
  createResponseUrl(target: ResponseUrlFor): string;
  channelName(channel: string): string;
  userName(userId: string): string;
  readonly socket: Pick<SocketModeServer, 'deliver' | 'disconnect' | 'openConnections'>;
  disconnectSocket(reason?: string): void;
  /** Forget messages, calls, files, faults and rate-limit windows (connections stay). */
  reset(): void;
  close(): Promise<void>;
}

function mergeRules(overrides: FakeSlackOptions['rateLimits'] = {}): Record<string, RateLimitRule> {
  const rules: Record<string, RateLimitRule> = { ...defaultRateLimits };
  for (const [method, override] of Object.entries(overrides)) {
    rules[method] = { ...(rules[method] ?? { perMinute: 50 }), ...override } as RateLimitRule;
  }
  return rules;
}

/** Starts a loopback stand-in for Slack's Web API, response_urls, file uploads and Socket Mode. */
export async function startFakeSlack(options: FakeSlackOptions): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const identity: SlackIdentity = {
    teamId: options.teamId ?? 'T0LAB',
    teamDomain: options.teamDomain ?? 'cluster-lab',
    botUserId: options.botUserId ?? 'U0BOT',
    botId: options.botId ?? 'B0BOT',
    botName: options.botName ?? 'cluster-bot',
    appId: options.appId ?? 'A0LAB',
  };
  const state = createSlackState({ identity, now, tsBase: options.tsBase ?? 1_764_400_000 });
  const directory = createDirectory(options);
  const faults = createFaultInjector(now);
  const limiter = createRateLimiter({
    rules: mergeRules(options.rateLimits),
    enabled: options.rateLimitsEnabled ?? true,
    now,
  });
  const socket = createSocketModeServer({ state, now });
  let baseUrl = '';

  function record(method: string, args: Record<string, unknown>, reply: HttpReply): void {
    const ok = reply.status === 200;
    state.calls.push({
      method,
      args,
      at: now(),
      status: reply.status,
      rateLimited: false,
      ok,
      ...(!ok && { error: `http_${reply.status}` }),
    });
  }

  async function upload(req: IncomingMessage, fileId: string, raw: Buffer): Promise<HttpReply> {
    const fault = faults.take('file_upload', { storms: false });
    if (fault?.kind === 'fail') return outageReply(fault.status);
    const pending = state.uploads.get(fileId);
    if (!pending) return { status: 404, body: 'file not found' };
    const contentType = req.headers['content-type'] ?? '';
    // WebClient posts multipart (one file part); curl-style clients post the raw bytes.
    const parts = contentType.startsWith('multipart/form-data') ? await parseMultipart(contentType, raw) : {};
    pending.bytes = Object.values(parts).find((v): v is Buffer => Buffer.isBuffer(v)) ?? raw;
    return { status: 200, body: `OK - ${pending.bytes.length}`, headers: { 'content-type': 'text/plain' } };
  }

  function respond(id: string, raw: Buffer): HttpReply {
    const fault = faults.take('response_url', { storms: false });
    if (fault?.kind === 'fail') return outageReply(fault.status);
    const target = state.responseUrls.get(id);
    if (!target) return jsonReply(404, { ok: false, error: 'no_such_url' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return jsonReply(400, { ok: false, error: 'invalid_json' });
    }
    const answer = applyResponseUrlPost(state, target, body, now());
    state.responsePosts.push({
      id,
      body,
      at: now(),
      status: answer.status,
      outcome: answer.outcome,
      ...(answer.body.ok === false && { error: String(answer.body.error) }),
    });
    return jsonReply(answer.status, answer.body);
  }

  async function route(req: IncomingMessage, url: URL, raw: Buffer): Promise<HttpReply> {
    const [, area, ...rest] = url.pathname.split('/');
    if (area === 'api' && rest.length === 1 && rest[0]) {
      return handleApiCall(
        {
          state,
          directory,
          faults,
          limiter,
          tokens: { bot: options.botToken, app: options.appToken },
          baseUrl,
          now,
          issueSocketUrl: () => socket.issueUrl(baseUrl),
        },
        rest[0],
        req,
        url,
        raw,
      );
    }
    if (req.method !== 'POST') return { status: 405, body: 'method not allowed' };
    if (area === 'upload' && rest[0] === 'v1' && rest[1]) {
      const reply = await upload(req, rest[1], raw);
      record('file_upload', { file_id: rest[1], bytes: raw.length }, reply);
      return reply;
    }
    if (area === 'response' && rest[0]) {
      const reply = respond(rest[0], raw);
      record('response_url', { id: rest[0], body: raw.toString('utf8') }, reply);
      return reply;
    }
    return { status: 404, body: 'not found' };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', baseUrl);
    readRequestBody(req)
      .then(async (raw) => {
        if (faults.latencyMs > 0) await sleep(faults.latencyMs);
        const [, area, method] = url.pathname.split('/');
        if (area === 'api' && method) await faults.untilReleased(method);
        writeReply(res, await route(req, url, raw));
      })
      .catch((error: unknown) => writeReply(res, { status: 500, body: String(error) }));
  });
  server.on('upgrade', (req: IncomingMessage, duplex, head: Buffer) => {
    socket.handleUpgrade(req, duplex, head, new URL(req.url ?? '/', baseUrl));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const callsTo = (method: string) => state.calls.filter((c) => c.method === method);
  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    identity,
    calls: state.calls,
    ephemerals: state.ephemerals,
    files: state.files,
    responseUrlPosts: state.responsePosts,
    socketAcks: state.acks,
    messages: (channel) => state.topLevel(channel),
    replies: (channel, threadTs) => state.replies(channel, threadTs),
    allMessages: (channel) => state.everything(channel),
    message: (channel, ts) => state.get(channel, ts),
    directMessages: (userId) => state.topLevel(directChannelOf(userId)),
    homeViews: (userId) =>
      state.homeViews.filter((view) => view.user === userId).map((view) => structuredClone(view)),
    callsTo,
    callsByMethod() {
      const grouped: Record<string, CallRecord[]> = {};
      for (const call of state.calls) grouped[call.method] = [...(grouped[call.method] ?? []), call];
      return grouped;
    },
    rateLimitedCount: (method) =>
      (method === undefined ? state.calls : callsTo(method)).filter((c) => c.rateLimited).length,
    waitFor: (probe, waitOptions = {}) => waitFor(waitOptions.description ?? 'condition', probe, waitOptions),
    createResponseUrl(target) {
      const id = state.newId('R');
      state.responseUrls.set(id, { ...target, id, createdAt: now(), uses: 0 });
      return `${baseUrl}/response/${id}`;
    },
    channelName: (channel) => directory.channelName(channel),
    userName: (userId) => directory.user(userId)?.name ?? userId.toLowerCase(),
    socket,
    disconnectSocket: (reason) => socket.disconnect(reason),
    failNext: (method, failure) => faults.failNext(method, failure),
    stormRateLimit: (method, storm) => faults.stormRateLimit(method, storm),
    setLatency: (ms) => faults.setLatency(ms),
    holdCalls: (method) => faults.holdCalls(method),
    reset() {
      state.reset();
      faults.reset();
      limiter.reset();
    },
    async close() {
      await socket.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests still in flight get a moment to finish before their connections are cut.
      const cut = setTimeout(() => server.closeAllConnections(), 1_000);
      await closed;
      clearTimeout(cut);
    },
  };
}
