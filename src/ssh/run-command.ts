import type { Client, ClientChannel } from 'ssh2';
import { ClusterBotError, type ErrorCode } from '../errors.js';
import type { ExecRequest, OutputStream, SshTarget } from '../lifecycle/ports/remote-shell.js';
import { createLineSplitter } from './create-line-splitter.js';
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

/** Why a run ends early: ours to explain (timeout, cancel, lost connection) or the caller's onLine failing. */
type StopReason =
  | { readonly code: ErrorCode; readonly message: string; readonly cause?: unknown }
  | { readonly error: unknown };

/**
 * Runs one command line on a ready client. Output is split into lines and handed to onLine one at a
 * time; while a returned promise is pending both streams are paused, which (ssh2 withholding window
 * adjustments) stops the remote writer instead of buffering without bound. Ending early sends EOF,
 * which the process-group prelude (see wrap-in-process-group.ts) turns into the end of the remote command.
 */
export function runCommand(
  client: Client,
  commandLine: string,
  request: ExecRequest,
  context: RunContext,
): Promise<RunOutcome> {
  const { target, logger } = context;
  const where = `${target.label} (${target.host}:${target.port})`;
  const program = request.argv[0] ?? '';
  const details = { label: target.label, host: target.host, port: target.port, program };

  return new Promise((resolve, reject) => {
    const splitters = { stdout: createLineSplitter(), stderr: createLineSplitter() };
    const pending: Array<[OutputStream, Buffer]> = [];
    let onLine = request.onLine;
    let channel: ClientChannel | undefined;
    let pumping = false;
    let channelClosed = false;
    let stderrEnded = false;
    let stopReason: StopReason | undefined;
    let outcome: RunOutcome = { exitCode: null, signal: null };
    let settled = false;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const settle = (remoteEnded: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      request.signal?.removeEventListener('abort', onAbort);
      client.off('close', onConnectionClose);
      if (stopReason === undefined) {
        resolve(outcome);
        return;
      }
      if ('error' in stopReason) {
        reject(stopReason.error);
        return;
      }
      const { code, message, cause } = stopReason;
      const unconfirmed = channel !== undefined && !remoteEnded ? ' (its end was not confirmed)' : '';
      reject(
        new ClusterBotError(code, `${message}${unconfirmed}`, {
          cause,
          details: { ...details, remoteEnded },
        }),
      );
    };

    /** Ends the run early; `endRemote` sends EOF, which the remote prelude turns into ending the command. */
    const stop = (reason: StopReason, endRemote = true): void => {
      if (stopReason !== undefined || settled) return;
      stopReason = reason;
      if (channel === undefined) {
        // No session yet: dropping the connection is the only way to make sure none starts.
        client.destroy();
        settle(false);
        return;
      }
      logger.debug(
        { ...details, reason: 'code' in reason ? reason.code : 'onLine failed' },
        'ending remote command',
      );
      if (endRemote) channel.end();
      graceTimer = setTimeout(() => {
        logger.warn(
          { ...details, graceMs: context.endGraceMs },
          'remote command did not end in time; dropping connection',
        );
        client.destroy();
        settle(false);
      }, context.endGraceMs);
    };

    const onAbort = (): void =>
      stop({
        code: 'CANCELLED',
        message: `${program} on ${where} was cancelled`,
        cause: request.signal?.reason,
      });

    let connectionError: unknown;
    client.on('error', (error) => {
      connectionError = error;
    });
    let connectionClosed = false;
    const onConnectionClose = (): void => {
      connectionClosed = true;
      if (channelClosed) return;
      const message = `The connection to ${where} was lost while ${program} was running`;
      // Nothing can be sent any more; sshd's side closing the pipes ends the command (see the prelude).
      stop({ code: 'SSH_CONNECTION_LOST', message, cause: connectionError }, false);
    };
    client.on('close', onConnectionClose);

    const finishIfDone = async (): Promise<void> => {
      if (!channelClosed || !stderrEnded || pumping || settled) return;
      pumping = true;
      try {
        for (const stream of ['stdout', 'stderr'] as const) {
          for (const line of splitters[stream].end()) await deliver(line, stream);
        }
      } catch (error) {
        stopReason ??= { error };
      }
      // A channel closed by a dead connection proves nothing about the remote command.
      settle(!connectionClosed);
    };

    const deliver = async (line: string, stream: OutputStream): Promise<void> => {
      const result = onLine?.(line, stream);
      if (result && channel) {
        channel.pause();
        channel.stderr.pause();
        await result;
      }
    };

    const pump = async (): Promise<void> => {
      pumping = true;
      try {
        for (let next = pending.shift(); next; next = pending.shift()) {
          const [stream, chunk] = next;
          for (const line of splitters[stream].push(chunk)) await deliver(line, stream);
        }
      } catch (error) {
        onLine = undefined;
        pending.length = 0;
        stop({ error });
      }
      pumping = false;
      channel?.resume();
      channel?.stderr.resume();
      await finishIfDone();
    };

    const onData = (stream: OutputStream) => (chunk: Buffer) => {
      if (onLine === undefined) return;
      pending.push([stream, chunk]);
      if (!pumping) void pump();
    };

    client.exec(commandLine, (error, opened) => {
      if (settled) {
        opened?.destroy();
        return;
      }
      if (error) {
        stopReason = {
          code: 'COMMAND_FAILED',
          message: `${where} did not start ${program}: ${error.message}`,
          cause: error,
        };
        client.destroy();
        settle(false);
        return;
      }
      channel = opened;
      logger.debug(details, 'remote command started');
      opened.on('data', onData('stdout'));
      opened.stderr.on('data', onData('stderr'));
      opened.stderr.once('end', () => {
        stderrEnded = true;
        void finishIfDone();
      });
      // 'close' carries the same exit data (ssh2 fills both from one record), so 'exit' is enough.
      opened.on('exit', (code: number | null, signal?: string) => {
        outcome = { exitCode: code ?? null, signal: signal ?? null };
      });
      opened.once('close', () => {
        channelClosed = true;
        void finishIfDone();
      });
      timeoutTimer = setTimeout(
        () =>
          stop({
            code: 'COMMAND_TIMEOUT',
            message: `${program} on ${where} ran past ${request.timeoutMs} ms`,
          }),
        // setTimeout fires at once past 2^31-1 ms; longer means "no practical limit", not "now".
        Math.min(request.timeoutMs, 2 ** 31 - 1),
      );
      if (request.signal?.aborted) onAbort();
    });
    request.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
