import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log/create-logger.js';
import { createMessageBook, type MessageBook } from './create-message-book.js';
import type { RedisThreadOutbox } from './create-redis-thread-outbox.js';
import type { ThreadOpSender } from './delivery.js';
import type { HeldMessages, ThreadOutbox } from './thread-outbox.js';

export interface OutboxDrainerOptions {
  readonly store: RedisThreadOutbox;
  readonly send: ThreadOpSender;
  readonly logger: Logger;
  /** How long a claim lasts unless renewed: a dead process's outboxes wait this long for another one. */
  readonly leaseMs?: number;
  /** How often outboxes nobody holds (their process died) are looked for. */
  readonly scanMs?: number;
  /** How long `delivered` waits at most (a hung Slack must not hold a job's worker slot). */
  readonly deliveredWithinMs?: number;
  /** The first retry's delay after an operation failed short of Slack refusing it (doubled each time). */
  readonly retryMs?: number;
}

/** How long `delivered` waits at most by default. */
export const DELIVERED_WITHIN_MS = 120_000;
/** Operations read per round trip (the claim's, each take's): enough to see a board edit that a later one replaces. */
const BATCH = 20;
/** At shutdown, how long the calls on the wire may take once the grace period is over. */
const LAST_CALL_MS = 1_000;
/** How often `delivered` looks whether a job's outbox is empty. */
const DELIVERED_POLL_MS = 100;
/** Tries of an operation that fails without Slack refusing it (Redis trouble, a timeout) before it is let go. */
const ATTEMPTS = 6;
const MAX_RETRY_MS = 10_000;
/** Lease periods one call may take before its lease is no longer renewed, so another process takes the outbox. */
const STUCK_LEASES = 4;

/**
 * Sends the job threads' outboxes kept in Redis, from any process: a job's outbox is claimed
 * with a lease (renewed while sending), its operations go one at a time in order, and each leaves
 * the list only once sent. The claim reads the first operations and the thread's message ts, each
 * take the next operations, in the same round trip; the ts stay in memory while the lease lasts
 * (a ts is recorded first-writer-wins, so a holder that lost its lease mid-post takes its successor's). Appends by this process are sent at once; a periodic scan takes over
 * outboxes whose process died (its lease lapsed). At shutdown it keeps sending until the deadline,
 * then lets go of its leases for another process.
 */
// Long only as a whole: drain, kick, scan and stop share the process's jobs in flight and its stopping flag.
export function createOutboxDrainer(options: OutboxDrainerOptions) {
  const { store, send, logger } = options;
  const leaseMs = options.leaseMs ?? 15_000;
  const retry = { send, book: createMessageBook(store.messages), logger, retryMs: options.retryMs ?? 500 };
  const deliveredWithinMs = options.deliveredWithinMs ?? DELIVERED_WITHIN_MS;
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const sending = new Map<string, Promise<void>>();
  /** Jobs appended to while their drain was ending: looked at again at once rather than at the next scan. */
  const again = new Set<string>();
  let stopping = false;

  const warn = (what: string) => (error: unknown) => logger.warn({ err: error }, `outbox: ${what} failed`);

  async function drain(jobId: string): Promise<void> {
    const claimed = await store.claim(jobId, owner, leaseMs, BATCH);
    // Not ours, or nothing in it (let go at once).
    if (!claimed || claimed.ops.length === 0) return;
    let ops = claimed.ops;
    /** The number of `ops[0]` in the outbox's life: the take names the one it takes off, so a resent take takes nothing more. */
    let first = claimed.first;
    const lease = keepLease({ store, logger, jobId, owner, leaseMs });
    const going = () => lease.held && !stopping;
    try {
      while (going()) {
        const [op, ...later] = ops as [string, ...string[]];
        const sent = await lease.during(() =>
          sendWithRetries(retry, jobId, op, later, going, claimed.messages),
        );
        if (!sent) break;
        // What this process appended until now, the take reads: no need to look again after it.
        again.delete(jobId);
        const next = await store.take(jobId, owner, leaseMs, BATCH, first);
        if (!next) lease.lost();
        // Emptied: the take let it go.
        else if (next.length === 0) return;
        else ops = next;
        first += 1;
      }
      // Even with the lease given up (a stuck call): one that came back after all was taken off,
      // which renewed the lease; left to lapse, the outbox would idle a lease period. Only our own is deleted.
      await store.release(jobId, owner);
    } finally {
      lease.stop();
    }
  }

  function kick(jobId: string): void {
    if (stopping) return;
    if (sending.has(jobId)) {
      again.add(jobId);
      return;
    }
    const draining = drain(jobId)
      .catch(warn(`sending job ${jobId}'s thread`))
      .finally(() => {
        sending.delete(jobId);
        if (again.delete(jobId)) kick(jobId);
      });
    sending.set(jobId, draining);
  }

  const scan = () => {
    store.pending().then((jobs) => {
      for (const jobId of jobs) kick(jobId);
    }, warn('scan'));
  };
  const scanning = setInterval(scan, options.scanMs ?? 2_000);
  scanning.unref();
  scan();

  const outbox: ThreadOutbox = {
    async append(jobId, ops, at, thread) {
      await store.append(jobId, ops, at, thread);
      if (ops.length > 0) kick(jobId);
    },
    delivered: (jobId) => waitDelivered(store, jobId, deliveredWithinMs, logger),
  };

  return {
    /** Where a worker's threads append: sent by this process right away, by another if it dies. */
    outbox,
    /**
     * Keeps sending until everything this process holds is out or `deadline` (epoch ms) passes,
     * then lets go of its leases: another process sends the rest, repeating at most the operation
     * that was in flight. A release Redis has not answered by `giveUpAt` is given up (its lease
     * lapses, and another process takes the outbox then), saying so.
     */
    async stop(deadline: number, giveUpAt: number): Promise<void> {
      clearInterval(scanning);
      const graceOver = sleep(Math.max(0, deadline - Date.now()), undefined, { ref: false });
      await Promise.race([Promise.all(sending.values()), graceOver]);
      stopping = true;
      // A call on the wire gets a moment to finish and leave the list; one still waiting for its
      // turn in Slack's budget then was never sent, and is the next process's to send.
      await Promise.race([Promise.all(sending.values()), sleep(LAST_CALL_MS, undefined, { ref: false })]);
      const late = sleep(Math.max(0, giveUpAt - Date.now()), false, { ref: false });
      await Promise.all(
        [...sending.keys()].map(async (jobId) => {
          const released = store.release(jobId, owner).then(() => true, warn('release'));
          if ((await Promise.race([released, late])) === false)
            logger.warn(
              { jobId, leaseMs },
              `outbox: job ${jobId}'s lease not released (Redis did not answer): it lapses, then another process sends the rest`,
            );
        }),
      );
    },
  };
}

/**
 * Sends one operation: Slack refusing it is the sender's to log, and the operation goes; any
 * other failure (Redis, the network) is retried with backoff while `going`, and after the last
 * try logged and let go, so one operation never stops the rest. False when it was left in place.
 */
async function sendWithRetries(
  {
    send,
    book,
    logger,
    retryMs,
  }: { send: ThreadOpSender; book: MessageBook; logger: Logger; retryMs: number },
  jobId: string,
  op: string,
  later: readonly string[],
  going: () => boolean,
  held: HeldMessages,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send(jobId, op, later, book(jobId, held));
      return true;
    } catch (error) {
      if (attempt >= ATTEMPTS) {
        logger.error({ err: error, jobId }, 'outbox: an operation kept failing; it is dropped');
        return true;
      }
      logger.warn({ err: error, jobId }, `outbox: operation of job ${jobId} (try ${attempt}) failed`);
    }
    await sleep(Math.min(retryMs * 2 ** (attempt - 1), MAX_RETRY_MS), undefined, { ref: false });
    if (!going()) return false;
  }
}

/**
 * A claimed outbox's lease, renewed while its operations go out. A call that never returns must not
 * keep the outbox here forever: once one has been on the wire for STUCK_LEASES lease periods the
 * lease is no longer renewed, and lapses for another process to take over.
 */
function keepLease(options: {
  store: RedisThreadOutbox;
  logger: Logger;
  jobId: string;
  owner: string;
  leaseMs: number;
}) {
  const { store, logger, jobId, owner, leaseMs } = options;
  let held = true;
  let inFlightSince: number | undefined;
  const renewing = setInterval(() => {
    if (inFlightSince !== undefined && Date.now() - inFlightSince > STUCK_LEASES * leaseMs) {
      if (held) logger.warn({ jobId }, 'outbox: a call is stuck; leaving the outbox to another process');
      held = false;
      return;
    }
    store.renew(jobId, owner, leaseMs).then(
      (ok) => {
        held &&= ok;
      },
      (error: unknown) => logger.warn({ err: error }, 'outbox: lease renewal failed'),
    );
  }, leaseMs / 3);
  renewing.unref();
  return {
    get held() {
      return held;
    },
    lost() {
      held = false;
    },
    /** Runs one call, timed for the stuck check. */
    async during<T>(call: () => Promise<T>): Promise<T> {
      inFlightSince = Date.now();
      try {
        return await call();
      } finally {
        inFlightSince = undefined;
      }
    },
    stop: () => clearInterval(renewing),
  };
}

/** Until a job's outbox is empty, or `withinMs` passed (a hung Slack must not hold the job: its thread follows). */
export async function waitDelivered(
  store: RedisThreadOutbox,
  jobId: string,
  withinMs: number,
  logger: Logger,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while ((await store.size(jobId)) > 0) {
    if (Date.now() > deadline) {
      logger.warn({ jobId }, 'outbox: not delivered in time; the job goes on, the thread follows');
      return;
    }
    await sleep(DELIVERED_POLL_MS);
  }
}

export type OutboxDrainer = ReturnType<typeof createOutboxDrainer>;
