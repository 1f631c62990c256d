import { setTimeout as pause } from 'node:timers/promises';
import { ClusterBotError, type ErrorCode, isClusterBotError } from '../errors.js';
import type {
  DetachedRequest,
  DetachedState,
  ExecRequest,
  ExecResult,
  PruneRequest,
  SshTarget,
} from '../lifecycle/ports/remote-shell.js';
import {
  detachArgv,
  FOLLOW_SCRIPT,
  KILL_SCRIPT,
  PROBE_SCRIPT,
  PRUNE_SCRIPT,
  RUNNER_SCRIPT,
  START_SCRIPT,
} from './detach-scripts.js';
import { END_GRACE_SECONDS } from './wrap-in-process-group.js';

type Exec = (target: SshTarget, request: ExecRequest) => Promise<ExecResult>;

/** Starting, probing and ending are short: a folder, a pid, a signal. */
const SHORT_COMMAND_MS = 30_000;
const EXIT_LINE = /^exit (\d+)$/;
/** Between attempts to reach a command again: doubling from the first, never longer than the last. */
const RETRY_MS = { first: 1_000, most: 15_000 } as const;
/** The host or the path to it failed, not the command: it goes on there, so it is followed again. */
const CONNECTION_CODES: ReadonlySet<ErrorCode> = new Set(['SSH_UNREACHABLE', 'SSH_CONNECTION_LOST']);

/**
 * The ssh side of a detached command (scripts in detach-scripts.ts), over plain execs: one to start it
 * (unless attaching), one that follows `out` from `fromLine` until `rc` appears. A lost connection is
 * not the command's end: it is reached again, with backoff, and followed from the next line until its
 * `rc` appears or its timeout passes, so a step never ends (and its cluster's lease is never freed)
 * while its command may still run. Aborting (a cancel), or the timeout, ends the command's process
 * group with one more exec.
 */
export async function runDetached(
  exec: Exec,
  target: SshTarget,
  request: DetachedRequest,
): Promise<ExecResult> {
  const startedAt = performance.now();
  const deadline = startedAt + request.timeoutMs;
  const follower = { shown: request.fromLine, started: request.attach };
  for (let attempt = 1; ; attempt++) {
    try {
      if (!follower.started) await claim(exec, target, request, attempt > 1);
      follower.started = true;
      const remaining = Math.max(1, deadline - performance.now());
      const exitCode = await follow(exec, target, request, follower, remaining);
      return { exitCode, signal: null, durationMs: Math.round(performance.now() - startedAt) };
    } catch (error) {
      // A first start that never reached the host started nothing: that is its answer, at once.
      const neverReached = attempt === 1 && !follower.started && isClusterBotError(error, 'SSH_UNREACHABLE');
      const lost = neverReached ? undefined : lostConnection(error);
      if (!lost)
        throw await endedOnPurpose(exec, target, request, stillRunning(target, request, follower, error));
      const waitMs = Math.min(RETRY_MS.first * 2 ** (attempt - 1), RETRY_MS.most);
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw await endedOnPurpose(exec, target, request, timedOut(target, request, lost));
      await request.onLost?.(lost, Math.min(waitMs, remaining));
      try {
        await pause(Math.min(waitMs, remaining), undefined, { signal: request.signal });
      } catch {
        throw await endedOnPurpose(exec, target, request, cancelled(target, request));
      }
    }
  }
}

/** A connection failure worth reaching the host again for, or undefined. */
function lostConnection(error: unknown): ClusterBotError | undefined {
  return isClusterBotError(error) && CONNECTION_CODES.has(error.code) ? error : undefined;
}

/** An SSH failure past the start says the command may go on: nothing here ended it. */
function stillRunning(
  target: SshTarget,
  request: DetachedRequest,
  follower: { started: boolean },
  error: unknown,
): unknown {
  if (!follower.started || !isClusterBotError(error) || !error.code.startsWith('SSH_')) return error;
  return new ClusterBotError(
    error.code,
    `${error.message}; ${request.argv[0] ?? ''} goes on running detached on ${target.label} (${request.folder})`,
    { cause: error, details: { label: target.label, folder: request.folder } },
  );
}

/** Starts the command; after a start whose answer was lost, only if its folder shows it never started. */
async function claim(exec: Exec, target: SshTarget, request: DetachedRequest, retry: boolean): Promise<void> {
  if (
    retry &&
    (await probeDetached(exec, target, request.folder, SHORT_COMMAND_MS, request.runAs)) !== 'none'
  )
    return;
  await start(exec, target, request);
}

/** Follows `out` from the next unshown line to the end; resolves with the command's exit code. */
async function follow(
  exec: Exec,
  target: SshTarget,
  request: DetachedRequest,
  follower: { shown: number },
  timeoutMs: number,
): Promise<number> {
  const endings: string[] = [];
  let exitCode: number | null = null;
  await exec(target, {
    argv: detachArgv(FOLLOW_SCRIPT, [request.folder, String(follower.shown)], request.runAs),
    timeoutMs,
    signal: request.signal,
    onLine: (line, stream) => {
      if (stream === 'stdout') {
        follower.shown += 1;
        return request.onLine?.(line, 'stdout');
      }
      const exit = EXIT_LINE.exec(line);
      if (exit) exitCode = Number(exit[1]);
      else endings.push(line);
    },
  });
  if (exitCode !== null) return exitCode;
  const program = request.argv[0] ?? '';
  throw new ClusterBotError(
    'COMMAND_FAILED',
    `${program} on ${target.label} ended without an exit code (${endings.join('; ') || 'no rc'}): its runner is gone, killed or the host restarted; its output is in ${request.folder}/out`,
    { details: { label: target.label, folder: request.folder, program } },
  );
}

/**
 * A cancel or a timeout ends the command's process group first; the error says if that failed (the
 * host unreachable, say). Any other failure is returned as it is.
 */
async function endedOnPurpose(
  exec: Exec,
  target: SshTarget,
  request: DetachedRequest,
  error: unknown,
): Promise<unknown> {
  if (!isClusterBotError(error) || (error.code !== 'CANCELLED' && error.code !== 'COMMAND_TIMEOUT'))
    return error;
  try {
    await end(exec, target, request);
    return error;
  } catch (failure) {
    return new ClusterBotError(
      error.code,
      `${error.message}; ending it failed: ${(failure as Error).message}`,
      {
        cause: failure,
        details: { label: target.label, folder: request.folder },
      },
    );
  }
}

function timedOut(target: SshTarget, request: DetachedRequest, lost: ClusterBotError): ClusterBotError {
  return new ClusterBotError(
    'COMMAND_TIMEOUT',
    `${request.argv[0] ?? ''} on ${target.label} ran past ${request.timeoutMs} ms, the last of it unreachable (${lost.message})`,
    { cause: lost, details: { label: target.label, folder: request.folder } },
  );
}

function cancelled(target: SshTarget, request: DetachedRequest): ClusterBotError {
  return new ClusterBotError('CANCELLED', `${request.argv[0] ?? ''} on ${target.label} was cancelled`, {
    cause: request.signal?.reason,
    details: { label: target.label, folder: request.folder },
  });
}

async function start(exec: Exec, target: SshTarget, request: DetachedRequest): Promise<void> {
  const said: string[] = [];
  // The runner inherits the start's directory and environment, set as for any exec.
  const result = await exec(target, {
    argv: detachArgv(START_SCRIPT, [RUNNER_SCRIPT, request.folder, ...request.argv], request.runAs),
    cwd: request.cwd,
    env: request.env,
    timeoutMs: SHORT_COMMAND_MS,
    signal: request.signal,
    onLine: (line) => {
      said.push(line);
    },
  });
  if (result.exitCode === 0 && said.includes('started')) return;
  const program = request.argv[0] ?? '';
  const why = said.includes('exists')
    ? `${request.folder} already exists: it was started once, and is never started twice`
    : `could not start it detached (exit ${result.exitCode}): ${said.join('; ')}`;
  throw new ClusterBotError('COMMAND_FAILED', `${program} on ${target.label}: ${why}`, {
    details: { label: target.label, folder: request.folder, program },
  });
}

/** Ends the command's process group on purpose. */
async function end(exec: Exec, target: SshTarget, request: DetachedRequest): Promise<void> {
  await exec(target, {
    argv: detachArgv(KILL_SCRIPT, [request.folder, String(END_GRACE_SECONDS)], request.runAs),
    timeoutMs: SHORT_COMMAND_MS,
  });
}

/** Reads a detached command's state from its folder (RemoteShell.probeDetached). */
export async function probeDetached(
  exec: Exec,
  target: SshTarget,
  folder: string,
  timeoutMs: number,
  runAs?: readonly string[],
  startedSince?: number,
): Promise<DetachedState> {
  let state: DetachedState | undefined;
  // Whole seconds, as the host's file times are read: a run started within the same second counts.
  const since = startedSince === undefined ? [] : [String(Math.floor(startedSince / 1000))];
  const result = await exec(target, {
    argv: detachArgv(PROBE_SCRIPT, [folder, ...since], runAs),
    timeoutMs,
    onLine: (line, stream) => {
      if (stream === 'stdout' && (line === 'none' || line === 'running' || line === 'ended')) state = line;
    },
  });
  if (result.exitCode !== 0 || state === undefined) {
    throw new ClusterBotError('COMMAND_FAILED', `could not read ${folder} on ${target.label}`, {
      details: { label: target.label, folder, exitCode: result.exitCode },
    });
  }
  return state;
}

/** Removes a finished job's folders (and stale ones) on the host; returns the folders kept as running. */
export async function pruneDetached(exec: Exec, target: SshTarget, request: PruneRequest): Promise<string[]> {
  const kept: string[] = [];
  const said: string[] = [];
  const result = await exec(target, {
    argv: detachArgv(
      PRUNE_SCRIPT,
      [request.root, request.jobFolder, String(request.olderThanMinutes)],
      request.runAs,
    ),
    timeoutMs: SHORT_COMMAND_MS,
    onLine: (line, stream) => {
      if (stream === 'stdout' && line.startsWith('kept ')) kept.push(line.slice('kept '.length));
      else said.push(line);
    },
  });
  if (result.exitCode !== 0) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `could not prune ${request.root} on ${target.label}: ${said.join('; ')}`,
      {
        details: { label: target.label, root: request.root, exitCode: result.exitCode },
      },
    );
  }
  return kept;
}
