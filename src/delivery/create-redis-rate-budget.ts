import type { Redis } from 'ioredis';
import type { DeliveryKeys } from './delivery-keys.js';
import type { Pace, RateBudget } from './rate-budget.js';

/**
 * GCRA (the generic cell rate algorithm, a token bucket kept as one number): the key holds the
 * theoretical arrival time `tat` of the bucket's next call, in ms. A call may go `burst - 1`
 * intervals before it; taking it moves `tat` one interval on. The call is taken even when it has to
 * wait, so whoever asks next queues behind it; the key expires once the bucket is full again.
 *
 * The clock is Redis's own TIME, read inside the script: every process on every host that takes a
 * bucket reads the same clock (on a Redis Cluster, the one node holding the key's slot), so hosts
 * whose clocks disagree cannot both believe the bucket is full. Redis 5+ replicates a script's
 * effects, not the script, so reading TIME before a write is allowed.
 *
 * KEYS[1] the bucket; ARGV[1] the interval in whole ms (rounded up: never faster than the pace),
 * ARGV[2] the burst. Returns the wait in ms.
 */
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local wait = tat - (tonumber(ARGV[2]) - 1) * interval - now
if wait < 0 then wait = 0 end
local nextTat = tat + interval
redis.call('SET', KEYS[1], string.format('%d', nextTat), 'PX', nextTat - now)
return wait
`;

/** The budget in Redis under the bot's prefix, shared by every bot and worker process on it. */
export function createRedisRateBudget(redis: Redis, keys: Pick<DeliveryKeys, 'rateBudget'>): RateBudget {
  return {
    async take(name: string, pace: Pace) {
      const interval = Math.ceil(1000 / pace.perSecond);
      return Number(await redis.eval(TAKE, 1, keys.rateBudget(name), interval, pace.burst));
    },
  };
}
