import type { Redis } from 'ioredis';
import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';
import type { RedisKeys } from './redis-keys.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Step checkpoints in one Redis hash per job: they outlive the worker that wrote them. A run reads
 * the hash once (the run is the job's only writer, so what it wrote since is what it keeps), and
 * each checkpoint leaves with whatever else the worker writes in the same tick (the step's event
 * for the job page), in one round trip.
 */
export function createRedisCheckpointStore(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  writes: WriteBatch,
): CheckpointStore {
  const key = keys.steps(jobId);
  let stored: Promise<Record<string, string>> | undefined;
  const written = new Map<string, string>();
  return {
    async get(stepId) {
      stored ??= redis.hgetall(key);
      const raw = written.get(stepId) ?? (await stored)[stepId];
      return raw ? (JSON.parse(raw) as StepRecord) : undefined;
    },
    set(stepId, record) {
      const raw = JSON.stringify(record);
      written.set(stepId, raw);
      return writes.write((pipeline) => pipeline.hset(key, stepId, raw));
    },
  };
}
