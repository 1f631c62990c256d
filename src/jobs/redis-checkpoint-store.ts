import type { Redis } from 'ioredis';
import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';
import type { RedisKeys } from './redis-keys.js';

/** Step checkpoints in one Redis hash per job: they outlive the worker that wrote them. */
export function createRedisCheckpointStore(redis: Redis, keys: RedisKeys, jobId: string): CheckpointStore {
  const key = keys.steps(jobId);
  return {
    async get(stepId) {
      const raw = await redis.hget(key, stepId);
      return raw ? (JSON.parse(raw) as StepRecord) : undefined;
    },
    async set(stepId, record) {
      await redis.hset(key, stepId, JSON.stringify(record));
    },
  };
}
