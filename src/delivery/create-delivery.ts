import type { Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import { createNumberedAppends } from './create-numbered-appends.js';
import {
  createOutboxDrainer,
  DELIVERED_WITHIN_MS,
  type OutboxDrainer,
  type OutboxDrainerOptions,
  waitDelivered,
} from './create-outbox-drainer.js';
import {
  createRedisThreadOutbox,
  type OutboxKeys,
  type PipelineBatch,
} from './create-redis-thread-outbox.js';
import type { Delivery, ThreadOpSender } from './delivery.js';
import type { ThreadOutbox } from './thread-outbox.js';

export interface RedisDeliveryOptions {
  /** Where the drainer claims, reads and takes, and where the messages' ts are kept. */
  readonly redis: Redis;
  readonly keys: OutboxKeys;
  /** Where appends leave: the process's one pipeline per tick, so a step's thread leaves with its checkpoint. */
  readonly batch: PipelineBatch;
  /** How long a message's ts outlives a job whose keys are gone already. */
  readonly retentionMs: number;
  readonly logger: Logger;
  /** The first resend's delay after a failed append (tests shorten it). */
  readonly appendRetryMs?: number;
  /** The drainer's lease, scan, retry and `delivered` deadline (tests shorten them). */
  readonly drain?: Omit<OutboxDrainerOptions, 'store' | 'send' | 'logger'>;
}

/** A process's drainer, started with the edge's sender. */
export interface RunningDrainer {
  /**
   * Keeps sending until everything this process holds is out or `deadline` (epoch ms) passes, then
   * lets go of its leases: another process sends the rest, repeating at most the call in flight.
   * Redis not answering by `giveUpAt`, the leases are left to lapse.
   */
  stop(deadline: number, giveUpAt: number): Promise<void>;
}

/**
 * Delivery to Slack, kept in Redis: the surface the edge uses (Delivery: a writer per run's
 * thread, `thread`, that appends; `delivered`) and `startDrainer`, which sends every job's outbox from this process (its own appends
 * at once, a dead process's once its lease lapses) through the edge's sender. Keys, leases,
 * numbering, takes and the messages' ts stay inside.
 */
export function createDelivery(options: RedisDeliveryOptions): Delivery & {
  startDrainer(send: ThreadOpSender): RunningDrainer;
} {
  const { logger } = options;
  const store = createRedisThreadOutbox(options.redis, options.keys, options.retentionMs, options.batch);
  const deliveredWithinMs = options.drain?.deliveredWithinMs ?? DELIVERED_WITHIN_MS;
  let drainer: OutboxDrainer | undefined;
  // Until the drainer starts, appends wait in Redis for whichever process's scan finds them.
  const outbox: ThreadOutbox = {
    append: (...args) => (drainer ? drainer.outbox.append(...args) : store.append(...args)),
    delivered: (jobId) => waitDelivered(store, jobId, deliveredWithinMs, logger),
  };
  return {
    ...createNumberedAppends(outbox, { logger, retryMs: options.appendRetryMs }),
    startDrainer(send) {
      drainer = createOutboxDrainer({ ...options.drain, store, send, logger });
      return { stop: drainer.stop };
    },
  };
}
