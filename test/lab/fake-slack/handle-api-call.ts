import type { IncomingMessage } from 'node:http';
import { chatMethods } from './chat-methods.js';
import type { Directory } from './create-directory.js';
import type { FaultInjector } from './create-fault-injector.js';
import type { RateLimiter } from './create-rate-limiter.js';
import type { SlackState } from './create-slack-state.js';
import type { CallRecord } from './fake-slack-types.js';
import { fileMethods } from './file-methods.js';
import { type HttpReply, jsonReply, outageReply, rateLimitedReply } from './http-reply.js';
import { type MethodResult, stringArg } from './method-context.js';
import { parseApiArgs } from './parse-api-args.js';
import { viewMethods } from './view-methods.js';
import { workspaceMethods } from './workspace-methods.js';

const methods = { ...chatMethods, ...fileMethods, ...workspaceMethods, ...viewMethods };

/** App-level tokens open Socket Mode connections; everything else takes the bot token. */
const appTokenMethods = new Set(['apps.connections.open']);

export interface ApiCallDeps {
  state: SlackState;
  directory: Directory;
  faults: FaultInjector;
  limiter: RateLimiter;
  tokens: { bot: string; app: string | undefined };
  baseUrl: string;
  now: () => number;
  issueSocketUrl(): string;
}

function bearer(req: IncomingMessage, args: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length);
  return stringArg(args, 'token');
}

function authError(method: string, token: string | undefined, tokens: ApiCallDeps['tokens']) {
  if (token === undefined) return 'not_authed';
  const expected = appTokenMethods.has(method) ? tokens.app : tokens.bot;
  if (token === expected) return undefined;
  return token === tokens.bot || token === tokens.app ? 'not_allowed_token_type' : 'invalid_auth';
}

function answer(
  deps: ApiCallDeps,
  method: string,
  req: IncomingMessage,
  args: Record<string, unknown>,
): HttpReply & { rateLimited?: boolean } {
  const fault = deps.faults.take(method);
  if (fault?.kind === 'storm') return { ...rateLimitedReply(fault.retryAfterSec), rateLimited: true };
  if (fault?.kind === 'fail') return outageReply(fault.status);
  const handler = methods[method];
  if (!handler) return jsonReply(200, { ok: false, error: 'unknown_method' });
  const error = authError(method, bearer(req, args), deps.tokens);
  if (error) return jsonReply(200, { ok: false, error });
  const retryAfter = deps.limiter.take(method, stringArg(args, 'channel'));
  if (retryAfter !== undefined) return { ...rateLimitedReply(retryAfter), rateLimited: true };
  const result: MethodResult = handler({
    args,
    state: deps.state,
    directory: deps.directory,
    baseUrl: deps.baseUrl,
    now: deps.now,
    issueSocketUrl: deps.issueSocketUrl,
  });
  return jsonReply(200, result);
}

/** One Web API call: faults first (they stand for Slack's edge), then auth, rate limit, the method. */
export async function handleApiCall(
  deps: ApiCallDeps,
  method: string,
  req: IncomingMessage,
  url: URL,
  raw: Buffer,
): Promise<HttpReply> {
  let args: Record<string, unknown>;
  try {
    args = await parseApiArgs(req, url, raw);
  } catch {
    return jsonReply(200, { ok: false, error: 'invalid_json' });
  }
  const reply = answer(deps, method, req, args);
  const { token: _token, ...recordedArgs } = args;
  const record: CallRecord = {
    method,
    args: recordedArgs,
    at: deps.now(),
    status: reply.status,
    rateLimited: reply.rateLimited === true,
    ok: false,
  };
  if (reply.headers?.['content-type']?.startsWith('application/json')) {
    const body = JSON.parse(reply.body) as { ok: boolean; error?: string };
    record.ok = body.ok;
    if (body.error !== undefined) record.error = body.error;
  } else {
    record.error = `http_${reply.status}`;
  }
  deps.state.calls.push(record);
  return reply;
}
