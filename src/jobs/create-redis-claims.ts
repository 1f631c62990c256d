import type { Redis } from 'ioredis';
import { DELIVERY_DEDUP_SECONDS } from './command-rate-limit.js';
import { isJobId } from './ports/job-id.js';
import type { RedisKeys } from './redis-keys.js';

/** As long as an ended job's thread is worth clicking in: how long a queued follow-up is held. */
const HELD_SECONDS = 30 * 24 * 3_600;

/**
 * A claim not yet settled: long enough for a submit under load, short enough that the bot killed
 * between the claim and the queue (it never settles) blocks the follow-up for a minute, not a month.
 */
const CLAIM_SECONDS = 60;

/**
 * What may happen once only, as small keys taken with SET NX so of two processes at once only one
 * passes: a Slack delivery, and a job's follow-up (the key then holds the follow-up's job id).
 */
export function createRedisClaims(redis: Redis, keys: RedisKeys) {
  const followUpKey = (kind: 'rerun' | 'rollback', jobId: string) =>
    kind === 'rerun' ? keys.rerunOf(jobId) : keys.rollbackOf(jobId);
  return {
    async firstDelivery(key: string): Promise<boolean> {
      return (await redis.set(keys.dedup(key), '1', 'EX', DELIVERY_DEDUP_SECONDS, 'NX')) !== null;
    },
    async claimFollowUp(
      kind: 'rerun' | 'rollback',
      jobId: string,
    ): Promise<{ readonly jobId: string | undefined } | undefined> {
      const key = followUpKey(kind, jobId);
      if ((await redis.set(key, 'claimed', 'EX', CLAIM_SECONDS, 'NX')) !== null) return undefined;
      const held = await redis.get(key);
      return { jobId: held && isJobId(held) ? held : undefined };
    },
    async settleFollowUp(
      kind: 'rerun' | 'rollback',
      jobId: string,
      followUpJobId: string | undefined,
    ): Promise<void> {
      const key = followUpKey(kind, jobId);
      if (followUpJobId === undefined) await redis.del(key);
      else await redis.set(key, followUpJobId, 'EX', HELD_SECONDS);
    },
  };
}
