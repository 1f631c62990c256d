import type { ChainableCommander, Redis } from 'ioredis';
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
  await queueRetireJob(redis.multi(), keys, jobId, retentionMs).exec();
}

/** The same expiries queued on the caller's transaction, so they land with the job's ending. */
export function queueRetireJob(
  multi: ChainableCommander,
  keys: RedisKeys,
  jobId: string,
  retentionMs: number,
): ChainableCommander {
  for (const key of [keys.job(jobId), keys.steps(jobId), keys.board(jobId), keys.approvals(jobId)])
    multi.pexpire(key, retentionMs);
  return multi;
}
