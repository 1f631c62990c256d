import type { ClientChannel } from 'ssh2';
import type { ExecRequest, OutputStream } from '../lifecycle/ports/remote-shell.js';
import { createLineSplitter } from './create-line-splitter.js';

export interface LinePump {
  /** True while lines are being handed on (or the last ones were taken by `finish`). */
  readonly busy: boolean;
  push(stream: OutputStream, chunk: Buffer): void;
  /** Hands on the unterminated last lines once the output ended; returns what onLine threw, if it did. */
  finish(): Promise<{ readonly error: unknown } | undefined>;
}

export interface LinePumpHooks {
  /** onLine threw or rejected: output is dropped from then on. */
  failed(error: unknown): void;
  /** Everything queued was handed on. */
  idle(): Promise<void>;
}

/**
 * Splits a channel's output into lines and hands them to onLine one at a time, in order. While a
 * returned promise is pending both streams are paused, so the remote writer waits instead of the
 * output piling up here.
 */
export function createLinePump(
  channel: ClientChannel,
  onLine: ExecRequest['onLine'],
  hooks: LinePumpHooks,
): LinePump {
  const splitters = { stdout: createLineSplitter(), stderr: createLineSplitter() };
  const pending: Array<[OutputStream, Buffer]> = [];
  let handler = onLine;
  let busy = false;

  const deliver = async (line: string, stream: OutputStream): Promise<void> => {
    const result = handler?.(line, stream);
    if (result) {
      channel.pause();
      channel.stderr.pause();
      await result;
    }
  };

  const pump = async (): Promise<void> => {
    busy = true;
    try {
      for (let next = pending.shift(); next; next = pending.shift()) {
        const [stream, chunk] = next;
        for (const line of splitters[stream].push(chunk)) await deliver(line, stream);
      }
    } catch (error) {
      handler = undefined;
      pending.length = 0;
      hooks.failed(error);
    }
    busy = false;
    channel.resume();
    channel.stderr.resume();
    await hooks.idle();
  };

  return {
    get busy() {
      return busy;
    },
    push(stream, chunk) {
      if (handler === undefined) return;
      pending.push([stream, chunk]);
      if (!busy) void pump();
    },
    async finish() {
      busy = true;
      try {
        for (const stream of ['stdout', 'stderr'] as const) {
          for (const line of splitters[stream].end()) await deliver(line, stream);
        }
        return undefined;
      } catch (error) {
        return { error };
      }
    },
  };
}
