import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/**
 * A finished job's record, steps, approvals and thread state expire after the retention; the audit
 * stream (capped) and the recent-jobs list (capped) keep their own bounds. Writes after this keep
 * the expiry (SET … KEEPTTL, HSET).
 */
export async function retireJob(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  retentionMs: number,
): Promise<void> {
  const multi = redis.multi();
  for (const key of [keys.job(jobId), keys.steps(jobId), keys.board(jobId), keys.approvals(jobId)])
    multi.pexpire(key, retentionMs);
  await multi.exec();
}
