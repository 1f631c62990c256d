import type { ClusterService } from './cluster-service.js';
import type { ServiceDeps } from './service-deps.js';

/** Sets the field to the new hash and answers whether it differed, in one step (several bot processes poll). */
const MARK_SHOWN = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** Who watches the App Home, kept in Redis so any bot process can refresh it for them. */
export function homeWatchers(
  deps: ServiceDeps,
): Pick<ClusterService, 'watchHome' | 'homeWatchers' | 'markHomeShown'> {
  const { redis, keys } = deps;
  return {
    async watchHome(userId) {
      await redis.zadd(keys.homeWatchers, deps.clock.now(), userId);
    },
    async homeWatchers(withinMs) {
      const since = deps.clock.now() - withinMs;
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
    async markHomeShown(userId, hash) {
      return (await redis.eval(MARK_SHOWN, 1, keys.homeShown, userId, hash)) === 1;
    },
  };
}
