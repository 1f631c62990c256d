import type { ErrorCode } from '../errors.js';

/** Why a run ends early: ours to explain (timeout, cancel, lost connection) or the caller's onLine failing. */
export type StopReason =
  | { readonly code: ErrorCode; readonly message: string; readonly cause?: unknown }
  | { readonly error: unknown };

/** Where one remote command is in its life. */
export type CommandPhase =
  /** The session is being opened; nothing runs remotely yet. */
  | { readonly name: 'starting' }
  /** The command runs and its output flows. */
  | { readonly name: 'running' }
  /** Asked to end (EOF sent, or the connection gone); waiting for the channel to close, or the grace. */
  | { readonly name: 'stopping'; readonly reason: StopReason }
  /** Resolved or rejected: nothing more happens. */
  | { readonly name: 'settled' };

// Stopping before the session opened settles at once: there is nothing remote to wait for.
const NEXT: Readonly<Record<CommandPhase['name'], readonly CommandPhase['name'][]>> = {
  starting: ['running', 'settled'],
  running: ['stopping', 'settled'],
  stopping: ['settled'],
  settled: [],
};

/** Whether `to` may follow `from`; anything else is a late event for a run that moved on. */
export function canEnter(from: CommandPhase, to: CommandPhase): boolean {
  return NEXT[from.name].includes(to.name);
}
