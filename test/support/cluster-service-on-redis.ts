import { Redis } from 'ioredis';
import { pino } from 'pino';
import { readEnv } from '../../src/config/read-env.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createJobStores } from '../../src/jobs/create-job-stores.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createClusterService } from '../../src/service/index.js';
import { systemClock } from '../../src/system-clock.js';
import { REDIS_URL, uniquePrefix } from './redis-prefix.js';

export interface ServiceOnRedisOptions {
  readonly groups?: ReadonlyMap<string, readonly string[]>;
  readonly perMinute?: number;
  readonly now?: () => number;
  /** Where its keys go; default a fresh prefix on the test Redis. */
  readonly redis?: RedisSpace;
}

/** A key space on some Redis (the benchmark's may be a Redis Cluster): how to connect, the prefix, how to clean it. */
export interface RedisSpace {
  connect(): Redis;
  readonly prefix: string;
  cleanup(): Promise<void>;
}

function testRedisSpace(): RedisSpace {
  return { connect: () => new Redis(REDIS_URL, { maxRetriesPerRequest: null }), ...uniquePrefix('service') };
}

/**
 * The real service on a real Redis under a prefix of its own (no worker: jobs stay queued), with
 * the stores it is built from, for a test to arrange and inspect. `stop` deletes the prefix.
 */
export function startServiceOnRedis(world: WorldConfig, options: ServiceOnRedisOptions = {}) {
  const { connect, prefix, cleanup } = options.redis ?? testRedisSpace();
  const redis = connect();
  const keys = redisKeys(prefix);
  const now = options.now ?? Date.now;
  const stores = createJobStores(
    redis,
    keys,
    world,
    pino({ level: 'silent' }),
    now,
    options.perMinute ?? 1_000,
    readEnv({}).JOB_RETENTION,
  );
  const metrics = createMetrics();
  const service = createClusterService({
    ...stores,
    world,
    metrics,
    members: async (groupId) => options.groups?.get(groupId) ?? [],
    clock: { now, sleep: systemClock.sleep },
  });
  return {
    ...stores,
    service,
    metrics,
    async stop() {
      await stores.queue.close();
      redis.disconnect();
      await cleanup();
    },
  };
}
