import type { ServerResponse } from 'node:http';
import type { ClusterService, JobLogChunk } from '../service/index.js';
import type { JobLogPollers } from './create-job-log-pollers.js';
import { logEvents } from './log-events.js';

export interface LogStreamTiming {
  /** A comment this often on an idle stream, so proxies keep it open. */
  readonly heartbeatMs: number;
  /** Aborts when the process stops: open streams end, so the listener can close. */
  readonly stop?: AbortSignal | undefined;
}

export interface LogStreamLimits {
  /** Open log streams the process serves at once; one more is answered 429. */
  readonly perProcess: number;
  /** Open log streams of one job at once. */
  readonly perJob: number;
  /** The most one event carries, so a stream whose reader is slow holds about this much, not a whole read. */
  readonly batchBytes: number;
  /** How long a stream waits for its reader to take what was sent before it is closed. */
  readonly idleMs: number;
}

export interface LogStreamDeps {
  readonly service: Pick<ClusterService, 'jobLog'>;
  readonly pollers: JobLogPollers;
  readonly limits: LogStreamLimits;
  readonly timing: LogStreamTiming;
}

/** A stream's first read; each next one grows or shrinks so that it comes to about one event's bytes. */
const FIRST_READ_LINES = 100;
const MAX_READ_LINES = 10_000;

/**
 * A job's log as Server-Sent Events: each event carries a batch of lines (one `data:` line each)
 * and the stream id of its last line as `id:`, so a reconnecting browser resumes from
 * `Last-Event-ID`; `end` once the log is complete. A stream behind the log reads on as its browser
 * takes the events; one at the log's end waits on the job's shared poller. Ends when the browser
 * goes away, or stops reading for `idleMs`.
 */
export async function streamJobLog(
  deps: LogStreamDeps,
  jobId: string,
  lastEventId: string | undefined,
  response: ServerResponse,
): Promise<void> {
  const { service, pollers, limits, timing } = deps;
  const closing = new AbortController();
  const close = () => closing.abort();
  response.once('close', close);
  timing.stop?.addEventListener('abort', close, { once: true });
  let stalled = false;
  const write = async (text: string) => {
    if (response.write(text) || closing.signal.aborted) return;
    stalled = (await drained(response, closing.signal, limits.idleMs)) === 'idle';
    if (stalled) close();
  };
  let after = lastEventId && /^\d+-\d+$/.test(lastEventId) ? lastEventId : '0';
  let readLines = FIRST_READ_LINES;
  let behind = true;
  await write('retry: 1000\n\n');
  while (!closing.signal.aborted) {
    const asked = readLines;
    const chunk: JobLogChunk | undefined | 'aborted' = behind
      ? await service.jobLog(jobId, after, asked)
      : await pollers.wait(
          jobId,
          after,
          AbortSignal.any([closing.signal, AbortSignal.timeout(timing.heartbeatMs)]),
        );
    if (chunk === 'aborted') {
      if (!closing.signal.aborted) await write(': keep-alive\n\n');
      continue;
    }
    if (!chunk) break;
    const last = chunk.lines.at(-1);
    if (last) {
      for (const event of logEvents(chunk.lines, limits.batchBytes)) {
        if (closing.signal.aborted) break;
        await write(event);
      }
      after = last.id;
      if (behind) readLines = nextReadLines(asked, chunk.lines, limits.batchBytes);
      // A full read may have left more behind it; anything shorter reached the log's end.
      behind = behind && chunk.lines.length >= asked;
    } else behind = false;
    if (chunk.ended && !closing.signal.aborted) {
      await write('event: end\ndata: \n\n');
      break;
    }
  }
  timing.stop?.removeEventListener('abort', close);
  // On stop, and from a reader that stopped reading, nothing more is waited for: the stream is cut off.
  if (timing.stop?.aborted || stalled) response.destroy();
  else response.end();
}

/** Whether what was written was taken, or the reader took nothing for `idleMs`, or the stream closed first. */
function drained(
  response: ServerResponse,
  closed: AbortSignal,
  idleMs: number,
): Promise<'taken' | 'idle' | 'closed'> {
  return new Promise((resolve) => {
    const done = (taken: 'taken' | 'idle' | 'closed') => {
      clearTimeout(timer);
      response.off('drain', onDrain);
      closed.removeEventListener('abort', onClose);
      resolve(taken);
    };
    const onDrain = () => done('taken');
    const onClose = () => done('closed');
    const timer = setTimeout(() => done('idle'), idleMs);
    response.once('drain', onDrain);
    closed.addEventListener('abort', onClose, { once: true });
  });
}

function nextReadLines(asked: number, lines: readonly { text: string }[], batchBytes: number): number {
  const bytes = lines.reduce((sum, line) => sum + line.text.length, 0);
  const perLine = Math.max(1, bytes / lines.length);
  return Math.max(1, Math.min(MAX_READ_LINES, Math.floor(batchBytes / perLine), asked * 2));
}
