import type { Redis } from 'ioredis';
import type { WorldConfig } from '../config/world-config.js';
import type { Logger } from '../log/create-logger.js';
import { createAuditLog } from './audit-log.js';
import { createClusterLock } from './cluster-lock.js';
import { createJobQueue } from './create-job-queue.js';
import { createJobRecords } from './job-record.js';
import { createJobFeedReader } from './read-job-feed.js';
import type { RedisKeys } from './redis-keys.js';
import { createThreadStore } from './thread-store.js';

/** The job layer's Redis stores under one prefix: built once per process, shared by the worker and the service. */
export function createJobStores(
  redis: Redis,
  keys: RedisKeys,
  world: WorldConfig,
  logger: Logger,
  now: () => number,
) {
  const records = createJobRecords(redis, keys);
  const lock = createClusterLock(redis, keys);
  return {
    redis,
    keys,
    records,
    lock,
    audit: createAuditLog(redis, keys, logger),
    queue: createJobQueue(redis, keys, records, lock, now),
    threads: createThreadStore(redis, keys, world.slack.alertsChannel),
    feed: createJobFeedReader(redis, keys),
  };
}

export type JobStores = ReturnType<typeof createJobStores>;
