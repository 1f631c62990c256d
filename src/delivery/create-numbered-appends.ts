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
 * Delivery's appends over `outbox`: each writer (`thread`, one per run's thread reporter) numbers
 * its appends in a stream of its own (create-sequenced-appender.ts), held as long as the writer.
 * A stream shared by writers, or dropped while its writer lives, would let a taken-over run's late
 * append start a stream from 0 that the outbox takes as the job's current one, refusing the live
 * run's next appends as a gap until they were given up.
 */
export function createNumberedAppends(outbox: ThreadOutbox, options: NumberedAppendsOptions): Delivery {
  return {
    thread: (jobId) =>
      createSequencedAppender(jobId, { outbox, logger: options.logger, retryMs: options.retryMs }),
    delivered: (jobId) => outbox.delivered(jobId),
  };
}
