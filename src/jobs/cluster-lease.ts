import type { ChainableCommander, Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

// Only the holder may release a lease holding one value (a job's lease taken back before any worker ran it).
export const RELEASE_LEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** True in a script while KEYS[1] (the lease) holds ARGV[1] (the job) and KEYS[2] (its attempt) ARGV[2]. */
export const HOLDS_LEASE = `redis.call('get', KEYS[1]) == ARGV[1] and redis.call('get', KEYS[2]) == ARGV[2]`;

// A start of the job the lease is free for or already names takes it, and its attempt id fences out
// an earlier start of the same job still alive (slow, or on another replica).
const ACQUIRE = `local held = redis.call('get', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('set', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1`;
// A lease that lapsed (Redis away, the worker slow) with nobody taking it meanwhile is taken again:
// only another job or another start of this one holding it means the run has lost it.
const RENEW = `if ${HOLDS_LEASE} then redis.call('pexpire', KEYS[2], ARGV[3]) return redis.call('pexpire', KEYS[1], ARGV[3]) end
if redis.call('exists', KEYS[1]) == 1 or (redis.call('exists', KEYS[2]) == 1 and redis.call('get', KEYS[2]) ~= ARGV[2]) then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('set', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1`;
const RELEASE = `if ${HOLDS_LEASE} then redis.call('del', KEYS[2]) return redis.call('del', KEYS[1]) end return 0`;

/** One start of a job: the job the lease names, and which run of its processor this is. */
export interface LeaseHolder {
  readonly jobId: string;
  readonly attempt: string;
}

/**
 * One mutating job per cluster: a lease in Redis holding the job id (what the queue takes at
 * enqueue, and what status reads), beside the attempt id of the processor run that holds it. It is
 * renewed while the job lives (running, or parked for approval until its expiry), released on every
 * ending, and expires by itself when its job is gone.
 */
export function createClusterLease(redis: Redis, keys: RedisKeys) {
  const fence = (cluster: string, holder: LeaseHolder) => ({
    keys: [keys.lease(cluster), keys.leaseAttempt(cluster)] as const,
    args: [holder.jobId, holder.attempt] as const,
  });
  const ms = (ttlMs: number) => String(Math.max(1, Math.round(ttlMs)));
  return {
    /** Takes the lease if free or held by this job (fencing out its earlier start); false when another job holds it. */
    async acquire(cluster: string, holder: LeaseHolder, ttlMs: number): Promise<boolean> {
      const { keys: held, args } = fence(cluster, holder);
      return (await redis.eval(ACQUIRE, 2, ...held, ...args, ms(ttlMs))) === 1;
    },
    /** False once another job or start holds it: this start has lost it. A lapsed lease nobody took is taken again. */
    async renew(cluster: string, holder: LeaseHolder, ttlMs: number): Promise<boolean> {
      const { keys: held, args } = fence(cluster, holder);
      return (await redis.eval(RENEW, 2, ...held, ...args, ms(ttlMs))) === 1;
    },
    async release(cluster: string, holder: LeaseHolder): Promise<void> {
      const { keys: held, args } = fence(cluster, holder);
      await redis.eval(RELEASE, 2, ...held, ...args);
    },
    /** The release queued on the caller's transaction, so the lease goes with the job's ending. */
    queueRelease(multi: ChainableCommander, cluster: string, holder: LeaseHolder): void {
      const { keys: held, args } = fence(cluster, holder);
      multi.eval(RELEASE, 2, ...held, ...args);
    },
    /** The keys and arguments `HOLDS_LEASE` checks, for a write that only this start may make. */
    fence,
    holder: (cluster: string): Promise<string | null> => redis.get(keys.lease(cluster)),
    /** Job ids waiting for the lease (`--queue`), first in line first. */
    waiting: (cluster: string): Promise<string[]> => redis.lrange(keys.waiting(cluster), 0, -1),
  };
}

export type ClusterLease = ReturnType<typeof createClusterLease>;
export type LeaseFence = ReturnType<ClusterLease['fence']>;
