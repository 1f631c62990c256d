import type { Redis } from 'ioredis';
import type { WorldConfig } from '../config/world-config.js';
import type { Logger } from '../log/create-logger.js';
import { createAuditLog } from './audit-log.js';
import { createClusterLease } from './cluster-lease.js';
import { createCommandBatch } from './command-batch.js';
import { createCommandRateLimit } from './command-rate-limit.js';
import { createJobQueue } from './create-job-queue.js';
import { createRedisApprovalBook } from './create-redis-approval-book.js';
import { createRedisClaims } from './create-redis-claims.js';
import { createRedisClusterNotes } from './create-redis-cluster-notes.js';
import { createRedisHomeWatchList } from './create-redis-home-watch-list.js';
import { createRedisHostKeyPins } from './create-redis-host-key-pins.js';
import { createJobRecords } from './job-record.js';
import { createJobFeedReader } from './read-job-feed.js';
import { createRedisOutboxBacklog } from './read-outbox-backlog.js';
import type { RedisKeys } from './redis-keys.js';
import { createThreadStore } from './thread-store.js';

/** The job layer's Redis stores under one prefix: built once per process, shared by the worker and the service. */
export function createJobStores(
  redis: Redis,
  keys: RedisKeys,
  world: WorldConfig,
  logger: Logger,
  now: () => number,
  commandsPerMinute: number,
  retentionMs: number,
) {
  const audit = createAuditLog(redis, keys, logger);
  const rateLimit = createCommandRateLimit(redis, keys, commandsPerMinute, now);
  return {
    redis,
    keys,
    /** What the process writes in one tick leaves as one pipeline: a step's checkpoint, page event and thread state. */
    batch: createCommandBatch(redis),
    records: createJobRecords(redis, keys),
    clusterLeases: createClusterLease(redis, keys),
    audit,
    rateLimit,
    queue: createJobQueue(redis, keys, { audit, rateLimit, retentionMs }, now),
    threads: createThreadStore(redis, keys, world.slack.alertsChannel),
    feed: createJobFeedReader(redis, keys),
    /** Rebuilt nodes' accepted host keys, pinned by every later job (and listed by status). */
    hostKeyPins: createRedisHostKeyPins(redis, keys, audit),
    /** The rest of what the service reads and writes, each behind its port in src/service/ports. */
    approvals: createRedisApprovalBook(redis, keys),
    claims: createRedisClaims(redis, keys),
    homeWatchList: createRedisHomeWatchList(redis, keys),
    clusterNotes: createRedisClusterNotes(redis, keys),
    outboxBacklog: createRedisOutboxBacklog(redis, keys),
  };
}

export type JobStores = ReturnType<typeof createJobStores>;
