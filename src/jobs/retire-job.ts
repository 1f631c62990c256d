import type { ChainableCommander } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/**
 * A finished job's record, steps, approvals, thread state (with its outbox) and page feed expire after the retention; the audit
 * stream (capped) and the recent-jobs list (capped) keep their own bounds. Writes after this keep
 * the expiry (SET … KEEPTTL, HSET). Queued on the caller's transaction or pipeline, so they land
 * with the job's ending.
 */
export function queueRetireJob(
  multi: ChainableCommander,
  keys: RedisKeys,
  jobId: string,
  retentionMs: number,
): ChainableCommander {
  const owned = [
    keys.job(jobId),
    keys.steps(jobId),
    keys.board(jobId),
    keys.approvals(jobId),
    keys.threadMessages(jobId),
    keys.outbox(jobId),
    keys.outboxSeq(jobId),
  ];
  // The job page's log and timeline live as long as the record they describe, not as long as the
  // board's link (JOB_PAGE_TTL): a link drawn later (the App Home draws one for the jobs it shows)
  // must find the whole job while its record is kept.
  for (const key of [...owned, keys.feedLog(jobId), keys.feedEvents(jobId)]) multi.pexpire(key, retentionMs);
  return multi;
}
