import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createAuditLog } from '../../src/jobs/audit-log.js';
import { createClusterLock } from '../../src/jobs/cluster-lock.js';
import { createCommandRateLimit } from '../../src/jobs/command-rate-limit.js';
import { createJobQueue } from '../../src/jobs/create-job-queue.js';
import { createJobRecords } from '../../src/jobs/job-record.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createThreadStore } from '../../src/jobs/thread-store.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createClusterService } from '../../src/service/index.js';
import { REDIS_URL, uniquePrefix } from './redis-prefix.js';

export interface ServiceOnRedisOptions {
  readonly groups?: ReadonlyMap<string, readonly string[]>;
  readonly perMinute?: number;
  readonly now?: () => number;
}

/**
 * The real service on a real Redis under a prefix of its own (no worker: jobs stay queued), with
 * the stores it is built from, for a test to arrange and inspect. `stop` deletes the prefix.
 */
export function startServiceOnRedis(world: WorldConfig, options: ServiceOnRedisOptions = {}) {
  const { prefix, cleanup } = uniquePrefix('service');
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const keys = redisKeys(prefix);
  const now = options.now ?? Date.now;
  const records = createJobRecords(redis, keys);
  const lock = createClusterLock(redis, keys);
  const threads = createThreadStore(redis, keys, world.slack.alertsChannel);
  const audit = createAuditLog(redis, keys, pino({ level: 'silent' }));
  const queue = createJobQueue(redis, keys, records, lock, now);
  const metrics = createMetrics();
  const service = createClusterService({
    world,
    redis,
    keys,
    records,
    threads,
    lock,
    queue,
    audit,
    metrics,
    members: async (groupId) => options.groups?.get(groupId) ?? [],
    rateLimit: createCommandRateLimit(redis, keys, options.perMinute ?? 1_000, now),
    now,
  });
  return {
    service,
    redis,
    keys,
    records,
    lock,
    threads,
    audit,
    metrics,
    async stop() {
      await queue.close();
      redis.disconnect();
      await cleanup();
    },
  };
}
