import type { ServerResponse } from 'node:http';

export interface HttpReply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return {
    status,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  };
}

/** A 429 the way Slack sends it: integer Retry-After seconds and an ok:false body. */
export function rateLimitedReply(retryAfterSec: number): HttpReply {
  return jsonReply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfterSec) });
}

/** An edge failure carries no JSON, like the HTML error pages Slack's load balancers return. */
export function outageReply(status: number): HttpReply {
  return { status, body: `fake Slack: injected ${status}`, headers: { 'content-type': 'text/plain' } };
}

export function writeReply(res: ServerResponse, reply: HttpReply): void {
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body);
}
