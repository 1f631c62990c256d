import type { Directory } from './create-directory.js';
import type { SlackState } from './create-slack-state.js';

export interface MethodContext {
  args: Record<string, unknown>;
  state: SlackState;
  directory: Directory;
  /** `http://127.0.0.1:PORT`, for the absolute URLs Slack hands out (upload_url, socket url). */
  baseUrl: string;
  now: () => number;
  issueSocketUrl(): string;
}

/** A Web API answer body: `{ok: true, ...}` or `{ok: false, error}`. */
export type MethodResult = Record<string, unknown> & { ok: boolean };

export type MethodHandler = (ctx: MethodContext) => MethodResult;

export function fail(error: string, extra: Record<string, unknown> = {}): MethodResult {
  return { ok: false, error, ...extra };
}

export function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A boolean argument as WebClient sends it: `true` in JSON, `"true"` in a form. */
export function flagArg(args: Record<string, unknown>, name: string): boolean {
  const value = args[name];
  return value === true || value === 'true' || value === '1';
}
