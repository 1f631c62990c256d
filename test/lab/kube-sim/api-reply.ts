import type { ServerResponse } from 'node:http';
import type { WatchRequest } from './serve-watch.js';

/** What a handler answers: a JSON body, a plain-text body, or a watch stream to open. */
export type ApiReply =
  | { readonly code: number; readonly json: unknown }
  | { readonly code: number; readonly text: string }
  | { readonly watch: WatchRequest };

/** Writes a JSON or text reply (watch replies are opened by the server, not written here). */
export function writeReply(
  res: ServerResponse,
  reply: { code: number; json: unknown } | { code: number; text: string },
): void {
  if ('json' in reply) {
    res.writeHead(reply.code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(reply.json));
  } else {
    res.writeHead(reply.code, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(reply.text);
  }
}
