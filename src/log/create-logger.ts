import { type DestinationStream, type Logger, pino } from 'pino';
import type { Redact } from './create-redactor.js';
import { redactValue } from './redact-value.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  readonly level: string;
  readonly redact: Redact;
  readonly destination?: DestinationStream;
}

/** The process's one root logger; everything else takes a child bound to job, cluster, step or user. */
export function createLogger(options: LoggerOptions): Logger {
  const { redact } = options;
  const root = pino(
    {
      level: options.level,
      base: { app: 'cluster-bot' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Errors reach pino already turned into plain objects (type, message, stack) by the redaction.
      serializers: { err: (err: unknown) => err },
      // Every argument (message, fields, errors) is redacted before pino serialises it: in the JSON
      // line a quote is `\"` and a secret no longer looks like itself.
      hooks: {
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          // pino's own shape for a bare error: it under `err`, its message as the line's message.
          const leading =
            first instanceof Error ? [{ err: first }, ...(rest.length > 0 ? [] : [first.message])] : [first];
          const redacted = [...leading, ...rest].map((arg) => redactValue(arg, redact));
          return method.apply(this, redacted as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
  // And so is every child's bindings; children of children inherit this `child`.
  const child = root.child;
  root.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactValue(bindings, redact), childOptions);
  } as typeof child;
  return root;
}
