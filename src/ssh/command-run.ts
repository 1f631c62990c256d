import type { Client, ClientChannel } from 'ssh2';
import { ClusterBotError } from '../errors.js';
import type { ExecRequest, SshTarget } from '../lifecycle/ports/remote-shell.js';
import { ChannelNotOpened, isChannelOpenFailure } from './channel-not-opened.js';
import { type CommandPhase, canEnter, type StopReason } from './command-phase.js';
import { createLinePump, type LinePump } from './create-line-pump.js';
import type { SshLogger } from './ssh-logger.js';

export interface RunContext {
  readonly target: SshTarget;
  readonly logger: SshLogger;
  /** How long to wait, after asking the command to end, for its channel to close before dropping it. */
  readonly endGraceMs: number;
}

export interface RunOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

interface Settlement {
  resolve(outcome: RunOutcome): void;
  reject(error: unknown): void;
}

/**
 * One remote command through its phases (see `CommandPhase`). The phase changes only in `enter`;
 * every event handler asks for the phase it leads to and does nothing when the run moved past it.
 */
export class CommandRun {
  private phase: CommandPhase = { name: 'starting' };
  private session: { readonly channel: ClientChannel; readonly pump: LinePump } | undefined;
  private outcome: RunOutcome = { exitCode: null, signal: null };
  private channelClosed = false;
  private stderrEnded = false;
  private connectionClosed = false;
  private connectionError: unknown;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly where: string;
  private readonly program: string;
  private readonly details: Record<string, unknown>;

  constructor(
    private readonly client: Client,
    private readonly request: ExecRequest,
    private readonly context: RunContext,
    private readonly settlement: Settlement,
  ) {
    const { target } = context;
    this.where = `${target.label} (${target.host}:${target.port})`;
    this.program = request.argv[0] ?? '';
    this.details = { label: target.label, host: target.host, port: target.port, program: this.program };
  }

  /** Where the run is now (for logs and tests). */
  get phaseName(): CommandPhase['name'] {
    return this.phase.name;
  }

  start(commandLine: string): void {
    try {
      this.client.exec(commandLine, this.onExec);
    } catch (error) {
      // ssh2 throws before sending anything when its socket is gone: the command never started.
      const message = `The connection to ${this.where} was gone before ${this.program} started`;
      const failure = new ClusterBotError('SSH_CONNECTION_LOST', message, {
        cause: error,
        details: this.details,
      });
      this.settle(false, { error: new ChannelNotOpened('disconnected', failure) });
      return;
    }
    // The connection is shared by the job's other commands: every listener goes again at settle.
    this.client.on('error', this.onConnectionError);
    this.client.on('close', this.onConnectionClose);
    this.request.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The one place the phase changes; false when `next` may not follow the current phase. */
  private enter(next: CommandPhase): boolean {
    if (!canEnter(this.phase, next)) return false;
    this.phase = next;
    return true;
  }

  private readonly onExec = (error: Error | undefined, opened: ClientChannel): void => {
    if (this.phase.name === 'settled') {
      opened?.destroy();
      return;
    }
    if (error) {
      const message = `${this.where} did not start ${this.program}: ${error.message}`;
      const failure = { code: 'COMMAND_FAILED' as const, message, cause: error };
      // A refused channel ran nothing: the pool may open it again once another channel closes.
      const refused = isChannelOpenFailure(error)
        ? new ChannelNotOpened(
            'refused',
            new ClusterBotError(failure.code, message, { cause: error, details: this.details }),
          )
        : undefined;
      this.settle(false, refused ? { error: refused } : failure);
      return;
    }
    this.open(opened);
  };

  private open(channel: ClientChannel): void {
    const pump = createLinePump(channel, this.request.onLine, {
      failed: (error) => this.stop({ error }),
      idle: () => this.finishIfDone(),
    });
    this.session = { channel, pump };
    this.enter({ name: 'running' });
    this.context.logger.debug(this.details, 'remote command started');
    channel.on('data', (chunk: Buffer) => pump.push('stdout', chunk));
    channel.stderr.on('data', (chunk: Buffer) => pump.push('stderr', chunk));
    channel.stderr.once('end', () => {
      this.stderrEnded = true;
      void this.finishIfDone();
    });
    // 'close' carries the same exit data (ssh2 fills both from one record), so 'exit' is enough.
    channel.on('exit', (code: number | null, signal?: string) => {
      this.outcome = { exitCode: code ?? null, signal: signal ?? null };
    });
    channel.once('close', () => {
      this.channelClosed = true;
      void this.finishIfDone();
    });
    const message = `${this.program} on ${this.where} ran past ${this.request.timeoutMs} ms`;
    this.timeoutTimer = setTimeout(
      () => this.stop({ code: 'COMMAND_TIMEOUT', message }),
      // setTimeout fires at once past 2^31-1 ms; longer means "no practical limit", not "now".
      Math.min(this.request.timeoutMs, 2 ** 31 - 1),
    );
    if (this.request.signal?.aborted) this.onAbort();
  }

  private readonly onAbort = (): void => {
    const message = `${this.program} on ${this.where} was cancelled`;
    this.stop({ code: 'CANCELLED', message, cause: this.request.signal?.reason });
  };

  private readonly onConnectionError = (error: Error): void => {
    this.connectionError = error;
  };

  private readonly onConnectionClose = (): void => {
    this.connectionClosed = true;
    if (this.channelClosed) return;
    const message = `The connection to ${this.where} was lost while ${this.program} was running`;
    // Nothing can be sent any more; sshd's side closing the pipes ends the command (see the prelude).
    this.stop({ code: 'SSH_CONNECTION_LOST', message, cause: this.connectionError }, false);
  };

  /** Ends the run early; `endRemote` sends EOF, which the remote prelude turns into ending the command. */
  private stop(reason: StopReason, endRemote = true): void {
    if (this.session === undefined) {
      if (this.phase.name !== 'starting') return;
      // No session yet, and the connection is shared: settled now, a session opened later is closed
      // at once (onExec), and its EOF ends the command there as a cancel does (see the prelude).
      this.settle(false, reason);
      return;
    }
    if (!this.enter({ name: 'stopping', reason })) return;
    const { logger, endGraceMs } = this.context;
    logger.debug(
      { ...this.details, reason: 'code' in reason ? reason.code : 'onLine failed' },
      'ending remote command',
    );
    if (endRemote) this.session.channel.end();
    this.graceTimer = setTimeout(() => {
      logger.warn(
        { ...this.details, graceMs: endGraceMs },
        'remote command did not end in time; dropping its channel',
      );
      // Only this command's channel: the job's other commands share the connection.
      this.session?.channel.destroy();
      this.settle(false);
    }, endGraceMs);
  }

  private async finishIfDone(): Promise<void> {
    const pump = this.session?.pump;
    if (!this.channelClosed || !this.stderrEnded || !pump || pump.busy || this.phase.name === 'settled')
      return;
    // A channel closed by a dead connection proves nothing about the remote command, and the last
    // bytes it brought without a newline are a line cut off, not a whole one: they are not handed on
    // (a follower shows that line whole when it reads the output again).
    const failure = this.connectionClosed ? undefined : await pump.finish();
    this.settle(!this.connectionClosed, failure);
  }

  /** `failure` counts only when the run was not already stopping for a reason of its own. */
  private settle(remoteEnded: boolean, failure?: StopReason): void {
    const reason = this.phase.name === 'stopping' ? this.phase.reason : failure;
    if (!this.enter({ name: 'settled' })) return;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.graceTimer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    this.client.off('close', this.onConnectionClose);
    this.client.off('error', this.onConnectionError);
    if (reason === undefined) this.settlement.resolve(this.outcome);
    else if ('error' in reason) this.settlement.reject(reason.error);
    else {
      const unconfirmed = this.session !== undefined && !remoteEnded ? ' (its end was not confirmed)' : '';
      this.settlement.reject(
        new ClusterBotError(reason.code, `${reason.message}${unconfirmed}`, {
          cause: reason.cause,
          details: { ...this.details, remoteEnded },
        }),
      );
    }
  }
}
