import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCommandRateLimit } from '../../src/jobs/command-rate-limit.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createInstantClock } from '../support/manual-clock.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const redis = new Redis(REDIS_URL);
const prefix = uniquePrefix('ratelimit');
afterAll(async () => {
  await prefix.cleanup();
  redis.disconnect();
});

describe('commands per user per minute (Redis)', () => {
  it('lets 10 through, refuses the 11th, counts each user apart, and starts over the next minute', async () => {
    const clock = createInstantClock(1_800_000_000_000);
    const limit = createCommandRateLimit(redis, redisKeys(prefix.prefix), 10, clock.now);
    const mallory = await Promise.all(Array.from({ length: 12 }, () => limit.admit({ userId: 'U0MALLORY' })));
    expect(mallory.filter((verdict) => verdict === 'admitted')).toHaveLength(10);
    expect(await limit.admit({ userId: 'U0ALICE' })).toBe('admitted');
    clock.advance(60_000);
    expect(await limit.admit({ userId: 'U0MALLORY' })).toBe('admitted');
    expect(
      await redis.pttl(`${prefix.prefix}:rate:U0MALLORY:${Math.floor(clock.now() / 60_000)}`),
    ).toBeGreaterThan(0);
  });

  it('takes a delivery once: its repeat is refused and not counted', async () => {
    const limit = createCommandRateLimit(redis, redisKeys(prefix.prefix), 1, Date.now);
    expect(await limit.admit({ userId: 'U0BOB', deliveryKey: 'command:T1' })).toBe('admitted');
    expect(await limit.admit({ userId: 'U0BOB', deliveryKey: 'command:T1' })).toBe('repeated');
    expect(await limit.admit({ userId: 'U0BOB', deliveryKey: 'command:T2' })).toBe('limited');
  });
});
