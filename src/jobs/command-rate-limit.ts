import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

const WINDOW_MS = 60_000;

export interface CommandRateLimit {
  readonly perMinute: number;
  /** Counts one command of the user; false once they sent more than `perMinute` this minute. */
  take(userId: string): Promise<boolean>;
}

/**
 * Commands per user per clock minute, counted in Redis so every bot process shares the count. It
 * runs before anything that costs a Slack call (resolving user groups) or a job.
 */
export function createCommandRateLimit(
  redis: Redis,
  keys: RedisKeys,
  perMinute: number,
  now: () => number,
): CommandRateLimit {
  return {
    perMinute,
    async take(userId) {
      const key = keys.commandCount(userId, Math.floor(now() / WINDOW_MS));
      const result = await redis
        .multi()
        .incr(key)
        .pexpire(key, 2 * WINDOW_MS)
        .exec();
      return Number(result?.[0]?.[1] ?? 0) <= perMinute;
    },
  };
}
