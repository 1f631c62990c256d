import type { Redis } from 'ioredis';
import type { RedisKeys } from './redis-keys.js';

/** Sets the field to the new hash and answers whether it differed, in one step (several bot processes poll). */
const MARK_SHOWN = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** Who watches the App Home (a sorted set by when), and the version each was last shown (a hash). */
export function createRedisHomeWatchList(redis: Redis, keys: RedisKeys) {
  return {
    async watch(userId: string, at: number): Promise<void> {
      await redis.zadd(keys.homeWatchers, at, userId);
    },
    async watchersSince(since: number): Promise<string[]> {
      const gone = await redis.zrangebyscore(keys.homeWatchers, '-inf', `(${since}`);
      if (gone.length > 0) {
        // Forgotten together: someone who opens the Home again gets a fresh publish anyway.
        await redis
          .multi()
          .zrem(keys.homeWatchers, ...gone)
          .hdel(keys.homeShown, ...gone)
          .exec();
      }
      return redis.zrangebyscore(keys.homeWatchers, since, '+inf');
    },
    async markShown(userId: string, hash: string): Promise<boolean> {
      return (await redis.eval(MARK_SHOWN, 1, keys.homeShown, userId, hash)) === 1;
    },
  };
}
