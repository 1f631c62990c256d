/** How the lifecycle reaches a host over SSH. Implemented by src/ssh; faked in unit tests. */

/**
 * Where the host key comes from: one fingerprint pinned for this job only, or the known_hosts file,
 * where `keptFingerprint` (the bot's pin of a rebuilt node) is the only key taken while the file
 * does not hold it yet; once it does, the file alone decides.
 */
export type HostKeyPin = { knownHostsPath: string; keptFingerprint?: string } | { fingerprint: string };

export interface SshTarget {
  /** Name shown to people: the inventory name of a node, or "ops". */
  readonly label: string;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly privateKeyPath: string;
  readonly hostKey: HostKeyPin;
}

export type OutputStream = 'stdout' | 'stderr';

export interface ExecRequest {
  /** The program and its arguments; each is quoted for the remote shell, none is interpreted. */
  readonly argv: readonly string[];
  /** Remote working directory (quoted like argv). */
  readonly cwd?: string;
  /** Extra environment for the remote command (names must be [A-Z_][A-Z0-9_]*; values quoted). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborting ends the remote command (EOF to its prelude, which kills its process group) and rejects with CANCELLED. */
  readonly signal?: AbortSignal;
  /** Called once per complete output line; a returned promise pauses the stream until it settles. */
  readonly onLine?: (line: string, stream: OutputStream) => void | Promise<void>;
}

export interface ExecResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
}

/**
 * A command that outlives the worker: it runs on the host in its own session, its output, pid and
 * exit code kept in `folder` (out, pid, rc), and the worker follows it there instead of holding it.
 */
export interface DetachedRequest extends ExecRequest {
  /** Absolute path of the command's own folder on the host; it exists once the command was started. */
  readonly folder: string;
  /** Lines of its output already shown: following starts with the next one. */
  readonly fromLine: number;
  /** Follow a command started earlier (never start it); otherwise start it, refusing if its folder exists. */
  readonly attach: boolean;
  /**
   * What every step of the protocol (start, follow, probe, end) runs under, e.g. `sudo -n` for a
   * folder only root may enter; none by default.
   */
  readonly runAs?: readonly string[] | undefined;
  /**
   * The connection was lost while the command goes on: it is reached again in `retryInMs`, and so on
   * (with backoff) until its exit code is read or its timeout passes.
   */
  readonly onLost?: ((error: Error, retryInMs: number) => void | Promise<void>) | undefined;
}

/** What to remove of the detached commands' folders on a host once a job ended for good. */
export interface PruneRequest {
  /** The folder of every job's detached commands there (`.cache/cluster-bot`, `/var/lib/cluster-bot`). */
  readonly root: string;
  /** The name of the folder (under root) of the job that ended for good (jobFolderName): it goes now. */
  readonly jobFolder: string;
  /** Another job's folder untouched for longer goes too (its own end could not reach this host). */
  readonly olderThanMinutes: number;
  readonly runAs?: readonly string[] | undefined;
}

/** Where a detached command stands: never started (no folder), still running, or ended. */
export type DetachedState = 'none' | 'running' | 'ended';

/** A host key as a server presented it, before anyone trusts it. */
export interface PresentedHostKey {
  /** OpenSSH's `SHA256:` fingerprint, as `ssh-keygen -lf` prints it. */
  readonly fingerprint: string;
  /** The key's algorithm name (`ssh-ed25519`, `ecdsa-sha2-nistp256`, ...). */
  readonly keyType: string;
  /** The public key blob in base64: with keyType, the key part of a known_hosts line. */
  readonly publicKey: string;
}

export interface RemoteShell {
  /** Runs argv on the target. Rejects with a ClusterBotError for connection, host key, timeout, cancel. */
  exec(target: SshTarget, request: ExecRequest): Promise<ExecResult>;
  /**
   * Starts (or re-attaches to) a detached command and follows its output to its end, resolving with its
   * exit code. Aborting `signal` (a cancel) or running past `timeoutMs` ends the command on purpose,
   * its whole process group; a lost connection or a dead worker only stops the following.
   */
  runDetached(target: SshTarget, request: DetachedRequest): Promise<ExecResult>;
  /**
   * Looks at a detached command's folder without touching it (under `runAs`, as DetachedRequest's).
   * With `startedSince` (epoch ms), a run whose runner started before it, by the host's clock, or
   * whose start time cannot be read, is another's: 'none'.
   */
  probeDetached(
    target: SshTarget,
    folder: string,
    timeoutMs: number,
    runAs?: readonly string[],
    startedSince?: number,
  ): Promise<DetachedState>;
  /**
   * Removes the folders PruneRequest names, except a step's whose command still runs; resolves with
   * those kept.
   */
  pruneDetached(target: SshTarget, request: PruneRequest): Promise<readonly string[]>;
  /**
   * Reads the host key a server presents and hangs up before authenticating: nothing can run there
   * through a probe, and the key is only shown, never trusted.
   */
  probeHostKey(target: Pick<SshTarget, 'host' | 'port'>, timeoutMs: number): Promise<PresentedHostKey>;
}
