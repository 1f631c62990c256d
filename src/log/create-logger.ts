import { type DestinationStream, type Logger, pino } from 'pino';
import type { Redact } from './create-redactor.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level: string;
  readonly redact: Redact;
  readonly destination?: DestinationStream;
}

/** The process's one root logger; everything else takes a child bound to job, cluster, step or user. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { app: 'cluster-bot' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Redact the serialised line, so secrets inside messages, errors and nested fields are all caught.
      hooks: { streamWrite: (line) => options.redact(line) },
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
