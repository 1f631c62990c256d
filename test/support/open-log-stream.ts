import { type IncomingMessage, request } from 'node:http';

export interface LogStream {
  readonly status: number;
  /** The whole body of a refusal; for a stream, what arrived so far. */
  text(): string;
  /** The Server-Sent Events received so far, each as sent (without its blank line). */
  events(): string[];
  /** Resolves when the server has ended or cut off the stream. */
  readonly ended: Promise<void>;
  /** Stops reading (the socket too: the server's writes back up), or reads again. */
  pause(): void;
  resume(): void;
  /** Goes away, as a browser closing the page does. */
  close(): void;
}

/**
 * Opens a job page's log stream (`/jobs/<id>/log?…` of the page link) as a browser's EventSource
 * would, on loopback; `paused` reads nothing from the start, like a reader that has stopped.
 */
export function openLogStream(
  pageUrl: string,
  options: { readonly paused?: boolean } = {},
): Promise<LogStream> {
  const url = new URL(pageUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}/log${url.search}`,
        headers: { accept: 'text/event-stream' },
      },
      (response: IncomingMessage) => {
        let text = '';
        const ended = new Promise<void>((done) => {
          response.once('end', done);
          response.once('close', done);
          response.once('error', () => done());
        });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        if (options.paused) response.pause();
        resolve({
          status: response.statusCode ?? 0,
          text: () => text,
          events: () =>
            text
              .split('\n\n')
              .slice(0, -1)
              .filter((event) => event.length > 0),
          ended,
          pause: () => response.pause(),
          resume: () => response.resume(),
          close: () => outgoing.destroy(),
        });
      },
    );
    outgoing.on('error', reject).end();
  });
}
