import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

const CANCEL_TTL_SECONDS = 7 * 86_400;

/** Marks a job cancelled by someone; its worker notices within a second (or on waking, if parked). */
export async function requestCancel(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  userId: string,
): Promise<void> {
  await redis.set(keys.cancel(jobId), userId, 'EX', CANCEL_TTL_SECONDS);
}

export function cancelledBy(redis: Redis, keys: RedisKeys, jobId: string): Promise<string | null> {
  return redis.get(keys.cancel(jobId));
}
