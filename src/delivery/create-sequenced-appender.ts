import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log/create-logger.js';
import type { ThreadAppends, ThreadState } from './delivery.js';
import type { ThreadOutbox } from './thread-outbox.js';

export interface SequencedAppenderDeps {
  readonly outbox: ThreadOutbox;
  readonly logger: Logger;
  /** The first resend's delay, doubled for each next one (up to 5 s). */
  readonly retryMs?: number;
  /** Resends before the unacknowledged operations are given up. */
  readonly attempts?: number;
}

const MAX_RETRY_MS = 5_000;

interface Numbered {
  readonly seq: number;
  readonly op: string;
}

/**
 * Appends a job's thread operations to its outbox at once (so a step's appends leave with its
 * checkpoint), each numbered in this appender's stream: the outbox stores each once and refuses
 * one whose predecessor is missing. When an append fails or is refused, everything not yet
 * acknowledged is resent from the first, in order, with backoff; should that keep failing, the
 * operations are given up loudly and a new stream starts, so the job's later messages still go.
 */
export function createSequencedAppender(jobId: string, deps: SequencedAppenderDeps): ThreadAppends {
  const { outbox, logger } = deps;
  const retryMs = deps.retryMs ?? 200;
  const attempts = deps.attempts ?? 10;
  let stream = randomBytes(6).toString('hex');
  let next = 0;
  let unacked: Numbered[] = [];
  let saveLost = false;
  /** The thread as it is now (the last append's that saved it): a resend saves it when a save was among what failed. */
  let thread: (() => ThreadState) | undefined;
  let resending: Promise<void> | undefined;
  let settled: Promise<unknown> = Promise.resolve();

  const acknowledge = (of: string, upTo: number) => {
    if (of === stream) unacked = unacked.filter((entry) => entry.seq >= upTo);
  };

  const resend = async (): Promise<void> => {
    try {
      for (let attempt = 1; ; attempt++) {
        await sleep(Math.min(retryMs * 2 ** (attempt - 1), MAX_RETRY_MS));
        if (unacked.length === 0 && !saveLost) return;
        if (attempt > attempts) {
          logger.error(
            { jobId, lost: unacked.length, saveLost },
            'thread: cannot append to the outbox; giving these messages up',
          );
          unacked = [];
          saveLost = false;
          stream = randomBytes(6).toString('hex');
          next = 0;
          return;
        }
        const sending = unacked;
        const save = saveLost;
        saveLost = false;
        const at = { stream, first: sending[0]?.seq ?? next };
        try {
          const ops = sending.map((entry) => entry.op);
          await outbox.append(jobId, ops, at, save ? thread?.() : undefined);
          acknowledge(at.stream, at.first + sending.length);
          attempt = 0;
        } catch (error) {
          saveLost ||= save;
          logger.warn({ err: error, jobId, attempt }, 'thread: resending to the outbox failed');
        }
      }
    } finally {
      resending = undefined;
    }
  };

  return {
    /** Appends `ops` (and, with `state`, the thread's state); Redis trouble never fails the job. */
    append(ops: readonly string[], state?: () => ThreadState): void {
      const save = state !== undefined;
      thread = state ?? thread;
      const at = { stream, first: next };
      next += ops.length;
      unacked.push(...ops.map((op, index) => ({ seq: at.first + index, op })));
      if (resending) {
        saveLost ||= save;
        return;
      }
      const appending = outbox.append(jobId, ops, at, state?.()).then(
        () => acknowledge(at.stream, at.first + ops.length),
        (error: unknown) => {
          logger.warn({ err: error, jobId }, `thread: ${save ? 'save' : 'message'} failed; resending`);
          saveLost ||= save;
          resending ??= resend();
          return resending;
        },
      );
      settled = Promise.all([settled, appending]);
    },
    /** Resolves once everything appended so far is in the outbox (or given up). */
    async appended(): Promise<void> {
      await settled;
    },
  };
}
