import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/** How many jobs' thread outboxes hold calls, and how many calls in all: for /metrics. */
export function createRedisOutboxBacklog(redis: Redis, keys: RedisKeys) {
  return {
    async read(): Promise<{ jobs: number; operations: number }> {
      const outboxes = await redis.smembers(keys.outboxes);
      const sizes = await Promise.all(outboxes.map((jobId) => redis.llen(keys.outbox(jobId))));
      return { jobs: outboxes.length, operations: sizes.reduce((sum, size) => sum + size, 0) };
    },
  };
}
