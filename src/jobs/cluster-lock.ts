import type { ChainableCommander, Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

// Compare-and-act scripts: only the holder may renew or release its lease.
export const RENEW_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
export const RELEASE_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One mutating job per cluster: a lease in Redis holding the job id. It is renewed while the job
 * lives (running, or parked for approval until its expiry), released on every ending, and expires
 * by itself when its job is gone.
 */
export function createClusterLock(redis: Redis, keys: RedisKeys) {
  return {
    /** Takes the lease if free (or already ours); false when another job holds it. */
    async acquire(cluster: string, jobId: string, ttlMs: number): Promise<boolean> {
      const key = keys.lock(cluster);
      if ((await redis.set(key, jobId, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return (await redis.eval(RENEW_LEASE, 1, key, jobId, String(ttlMs))) === 1;
    },
    async renew(cluster: string, jobId: string, ttlMs: number): Promise<boolean> {
      return (
        (await redis.eval(
          RENEW_LEASE,
          1,
          keys.lock(cluster),
          jobId,
          String(Math.max(1, Math.round(ttlMs))),
        )) === 1
      );
    },
    async release(cluster: string, jobId: string): Promise<void> {
      await redis.eval(RELEASE_LEASE, 1, keys.lock(cluster), jobId);
    },
    /** The release queued on the caller's transaction, so the lease goes with the job's ending. */
    queueRelease(multi: ChainableCommander, cluster: string, jobId: string): void {
      multi.eval(RELEASE_LEASE, 1, keys.lock(cluster), jobId);
    },
    holder: (cluster: string): Promise<string | null> => redis.get(keys.lock(cluster)),
  };
}

export type ClusterLock = ReturnType<typeof createClusterLock>;
