import type { Logger } from '../log/create-logger.js';
import { createSequencedAppender } from './create-sequenced-appender.js';
import type { Delivery } from './delivery.js';
import type { ThreadOutbox } from './thread-outbox.js';

export interface NumberedAppendsOptions {
  readonly logger: Logger;
  /** The first resend's delay after a failed append (tests shorten it). */
  readonly retryMs?: number;
}

/**
 * Delivery's appends over `outbox`: one numbered stream per job this process appends to
 * (create-sequenced-appender.ts), kept while it has something to acknowledge or resend and let go
 * once idle, so a long-lived worker keeps none for finished jobs; the job's next append starts a
 * new stream, which the outbox takes from its first number on.
 */
export function createNumberedAppends(outbox: ThreadOutbox, options: NumberedAppendsOptions): Delivery {
  const appenders = new Map<string, ReturnType<typeof createSequencedAppender>>();
  return {
    append(jobId, ops, state) {
      let appender = appenders.get(jobId);
      if (!appender) {
        appender = createSequencedAppender(jobId, {
          outbox,
          logger: options.logger,
          retryMs: options.retryMs,
        });
        appenders.set(jobId, appender);
      }
      appender.append(ops, state);
      const mine = appender;
      void mine.settled().then(() => {
        if (appenders.get(jobId) === mine && mine.idle()) appenders.delete(jobId);
      });
    },
    async appended(jobId) {
      await appenders.get(jobId)?.settled();
    },
    delivered: (jobId) => outbox.delivered(jobId),
  };
}
