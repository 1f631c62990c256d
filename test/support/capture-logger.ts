import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log/create-logger.js';
import type { Redact } from '../../src/log/create-redactor.js';

/** The process logger writing into a list: each element one JSON line, as it would reach stdout. */
export function captureLogger(redact: Redact, level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level, redact, destination }), lines };
}
