import { readFile as readFileFromDisk } from 'node:fs/promises';
import { ClusterBotError } from '../errors.js';
import type { ExecRequest, ExecResult, RemoteShell, SshTarget } from '../lifecycle/ports/remote-shell.js';
import { buildRemoteCommand } from './build-remote-command.js';
import { createSshConnectionPool } from './create-ssh-connection-pool.js';
import { probeHostKey } from './probe-host-key.js';
import type { ReadFile } from './read-file.js';
import { runCommand } from './run-command.js';
import { probeDetached, pruneDetached, runDetached } from './run-detached.js';
import type { SshLogger } from './ssh-logger.js';
import { tenths } from './tenths.js';
import { END_GRACE_SECONDS, wrapInProcessGroup } from './wrap-in-process-group.js';

export interface SshRemoteShellOptions {
  /** TCP connect + handshake + authentication (ssh2 readyTimeout). Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** SSH-level keepalive, so a dead peer is noticed mid-command. Default 10 s. */
  readonly keepaliveIntervalMs?: number;
  /** Unanswered keepalives before the connection counts as lost. Default 3. */
  readonly keepaliveCountMax?: number;
  /**
   * Channels (commands) open at once on one connection; more wait for one to end. sshd's MaxSessions
   * (10 by default) is the most. Default 10.
   */
  readonly channelsPerConnection?: number;
  /** Reads private keys and known_hosts files (read on every exec, so a new pin applies at once). */
  readonly readFile?: ReadFile;
  readonly logger?: SshLogger;
}

/** A job run's shell: its connections stay open for the run, `close` ends them. */
export interface SshRemoteShell extends RemoteShell {
  close(): Promise<void>;
}

/** What a "remote command ended" line says ran. */
interface ShownCommand {
  readonly program: string | undefined;
  /** Which run of a program it was (`--list-tasks`, `--check`), never an option's value. */
  readonly options: readonly string[];
  /** A step of a detached command's protocol (its start, follow, probe or end), not a run of its own. */
  readonly detached?: true;
}

const shownAs = (argv: readonly string[]): ShownCommand => ({
  program: argv[0],
  options: argv.filter((word) => word.startsWith('--')).map((word) => word.split('=')[0]!),
});

const silent: SshLogger = { debug() {}, warn() {} };
/** OpenSSH's default MaxSessions: more channels on one connection are refused ("open failed"). */
const MAX_CHANNELS_PER_CONNECTION = 10;

/**
 * RemoteShell over ssh2 for one job run: one connection per host, each command a channel on it,
 * opened again when it drops; key authentication only, the host key always pinned. The command's
 * timeout starts once its channel is open; connecting is bounded by connectTimeoutMs.
 */
export function createSshRemoteShell(options: SshRemoteShellOptions = {}): SshRemoteShell {
  const logger = options.logger ?? silent;
  const pool = createSshConnectionPool({
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    keepaliveIntervalMs: options.keepaliveIntervalMs ?? 10_000,
    keepaliveCountMax: options.keepaliveCountMax ?? 3,
    readFile: options.readFile ?? readFileFromDisk,
    logger,
    // Past the server's MaxSessions a channel is refused and waits, so a host set lower is met too.
    channelsPerConnection: options.channelsPerConnection ?? MAX_CHANNELS_PER_CONNECTION,
  });
  // TERM, the remote prelude's second try and its SIGKILL, plus room for the channel to close.
  const endGraceMs = (END_GRACE_SECONDS + 4) * 1000;

  /** Runs one command; its log line names `shown`, the program an operator would say ran. */
  async function execShown(
    target: SshTarget,
    request: ExecRequest,
    shown: ShownCommand,
  ): Promise<ExecResult> {
    const startedAt = performance.now();
    const commandLine = wrapInProcessGroup(buildRemoteCommand(request));
    if (request.signal?.aborted) {
      throw new ClusterBotError(
        'CANCELLED',
        `${request.argv[0]} on ${target.label} was cancelled before it started`,
        {
          cause: request.signal.reason,
          details: { label: target.label, host: target.host, port: target.port },
        },
      );
    }
    return pool.withChannel(target, request.signal, async ({ client, waitedMs }) => {
      const outcome = await runCommand(client, commandLine, request, { target, logger, endGraceMs });
      const durationMs = performance.now() - startedAt;
      // The wait for its channel apart from the command's: a connection opened for it, or a free slot.
      logger.debug(
        {
          label: target.label,
          ...shown,
          exitCode: outcome.exitCode,
          connectMs: tenths(waitedMs),
          durationMs: tenths(durationMs),
        },
        'remote command ended',
      );
      return { ...outcome, durationMs: Math.round(durationMs) };
    });
  }

  const shell: SshRemoteShell = {
    exec: (target, request) => execShown(target, request, shownAs(request.argv)),
    // Its start, follow, probe and end are shell scripts: each is logged as the command it serves.
    runDetached: (target, request) =>
      runDetached(
        (on, step) => execShown(on, step, { ...shownAs(request.argv), detached: true }),
        target,
        request,
      ),
    probeDetached: (...probe) => probeDetached(shell.exec, ...probe),
    pruneDetached: (target, request) => pruneDetached(shell.exec, target, request),
    probeHostKey,
    close: () => pool.close(),
  };
  return shell;
}
