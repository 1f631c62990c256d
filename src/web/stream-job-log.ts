import type { ServerResponse } from 'node:http';
import type { ClusterService } from '../service/index.js';

export interface LogStreamTiming {
  /** How often an idle stream asks for new lines: the page's latency is at most about this. */
  readonly pollMs: number;
  /** A comment this often on an idle stream, so proxies keep it open. */
  readonly heartbeatMs: number;
  /** Aborts when the process stops: open streams end, so the listener can close. */
  readonly stop?: AbortSignal | undefined;
}

const BATCH = 10_000;

/**
 * A job's log as Server-Sent Events: each event carries a batch of lines (one `data:` line each)
 * and the stream id of its last line as `id:`, so a reconnecting browser resumes from
 * `Last-Event-ID`; `end` once the log is complete. Ends when the browser goes away.
 */
export async function streamJobLog(
  service: Pick<ClusterService, 'jobLog'>,
  jobId: string,
  lastEventId: string | undefined,
  response: ServerResponse,
  timing: LogStreamTiming,
): Promise<void> {
  let closed = false;
  let wake: () => void = () => undefined;
  const close = () => {
    closed = true;
    wake();
  };
  response.once('close', close);
  timing.stop?.addEventListener('abort', close, { once: true });
  // A browser that stopped reading holds back 'drain' for good: closing or stopping wakes it too.
  const write = async (text: string) => {
    if (response.write(text) || closed) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      response.once('drain', resolve);
    });
  };
  let after = lastEventId && /^\d+-\d+$/.test(lastEventId) ? lastEventId : '0';
  let quietSince = Date.now();
  await write('retry: 1000\n\n');
  while (!closed) {
    const chunk = await service.jobLog(jobId, after, BATCH);
    if (!chunk) break;
    const last = chunk.lines.at(-1);
    if (last) {
      // One `data:` per line of text: a line break inside an entry would otherwise end the event early.
      const data = chunk.lines
        .flatMap((line) => line.text.split(/\r\n|\r|\n/))
        .map((text) => `data: ${text}\n`)
        .join('');
      await write(`id: ${last.id}\nevent: lines\n${data}\n`);
      after = last.id;
      quietSince = Date.now();
      continue;
    }
    if (chunk.ended) {
      await write('event: end\ndata: \n\n');
      break;
    }
    if (Date.now() - quietSince >= timing.heartbeatMs) {
      await write(': keep-alive\n\n');
      quietSince = Date.now();
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, timing.pollMs);
    });
  }
  timing.stop?.removeEventListener('abort', close);
  // On stop, a reader that is not reading is cut off rather than waited for: the listener must close.
  if (timing.stop?.aborted) response.destroy();
  else response.end();
}
