import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/app/connect-redis.js';
import { createRedisRateBudget } from '../../src/delivery/create-redis-rate-budget.js';
import { createSharedSlackPacer } from '../../src/delivery/create-shared-slack-pacer.js';
import type { SlackPacer } from '../../src/delivery/delivery.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { systemClock } from '../../src/system-clock.js';
import { captureLogger } from '../support/capture-logger.js';
import { freePort } from '../support/free-port.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { waitFor } from '../support/wait-for.js';

// Two connections: two processes of the bot, sharing one Redis and one prefix.
const first = new Redis(REDIS_URL);
const second = new Redis(REDIS_URL);
const prefix = uniquePrefix('slack-budget');
const keys = redisKeys(prefix.prefix);
afterAll(async () => {
  await prefix.cleanup();
  first.disconnect();
  second.disconnect();
});

/** A shared pacer whose Redis is a closed port, for `use` to run against; the connection is closed after. */
async function withRedisAway(
  options: { failFast?: boolean },
  use: (pacer: SlackPacer, log: ReturnType<typeof captureLogger>) => Promise<void>,
) {
  const down = connectRedis(
    {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      REDIS_SENTINELS: undefined,
      REDIS_SENTINEL_NAME: '',
    },
    options,
  );
  down.on('error', () => undefined);
  try {
    const log = captureLogger((text) => text);
    await use(createSharedSlackPacer(createRedisRateBudget(down, keys), systemClock, log.logger), log);
  } finally {
    down.disconnect();
  }
}

describe('the Slack budget in Redis (GCRA on Redis time)', () => {
  it('two processes take turns from one bucket: three at once, then one per interval, whoever asks', async () => {
    const budgets = [createRedisRateBudget(first, keys), createRedisRateBudget(second, keys)];
    const started = Date.now();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await budgets[i % 2]!.take('turns', { burst: 3, perSecond: 2 }));
    const elapsed = Date.now() - started;
    const expected = [0, 0, 0, 500, 1_000, 1_500, 2_000, 2_500];
    waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(expected[i]!);
      expect(wait).toBeGreaterThanOrEqual(Math.max(0, expected[i]! - elapsed - 1));
    });
    // The key lives as long as the bucket is not full again, under the bot's prefix.
    const ttl = await first.pttl(`${prefix.prefix}:slack-budget:turns`);
    expect(ttl).toBeGreaterThan(4_000 - elapsed - 10);
    expect(ttl).toBeLessThanOrEqual(4_000);
  });

  it('taken at the same moment by both, no call gets a slot another already has', async () => {
    const budgets = [createRedisRateBudget(first, keys), createRedisRateBudget(second, keys)];
    await Promise.all([first.ping(), second.ping()]);
    const started = Date.now();
    const waits = await Promise.all(
      Array.from({ length: 10 }, (_, i) => budgets[i % 2]!.take('together', { burst: 1, perSecond: 1 })),
    );
    // Each wait counts from its own arrival: slots a second apart show as waits at least a second
    // less the spread of the arrivals apart; a slot given twice, as a gap no wider than that spread.
    const spread = Date.now() - started;
    expect(spread).toBeLessThan(400);
    const sorted = [...waits].sort((a, b) => a - b);
    expect(sorted[0]).toBe(0);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(1_000 - spread);
  });

  it('refills with time, forgets a full bucket, and keeps buckets apart', async () => {
    const budget = createRedisRateBudget(first, keys);
    // One a second: a loaded machine's pauses between the takes stay far below one slot.
    const pace = { burst: 2, perSecond: 1 };
    expect([await budget.take('refill', pace), await budget.take('refill', pace)]).toEqual([0, 0]);
    expect(await budget.take('refill', pace)).toBeGreaterThan(0);
    expect(await budget.take('refill:other', pace)).toBe(0);
    // Full again once its slots are paid back: the bucket is forgotten, and the next take goes at once.
    await waitFor(
      'the refilled bucket forgotten',
      async () => (await first.exists(`${prefix.prefix}:slack-budget:refill`)) === 0,
      {
        timeoutMs: 10_000,
      },
    );
    expect(await budget.take('refill', pace)).toBe(0);
  });

  it('two pacers over it post to one channel at about one a second after a burst of two', async () => {
    const { logger } = captureLogger((text) => text);
    const pacers = [first, second].map((redis) =>
      createSharedSlackPacer(createRedisRateBudget(redis, keys), systemClock, logger),
    );
    const started = Date.now();
    const sentAt = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        await pacers[i % 2]!.take('chat.postMessage', 'C0PACED');
        return Date.now() - started;
      }),
    );
    const sorted = sentAt.sort((a, b) => a - b);
    expect(sorted[1]).toBeLessThan(200);
    expect(sorted[2]).toBeGreaterThanOrEqual(1_050);
    expect(sorted[3]).toBeGreaterThanOrEqual(2_100);
    expect(sorted[4]).toBeGreaterThanOrEqual(3_150);
    // Another channel has its own bucket; updates are counted per workspace, not per channel.
    const other = Date.now();
    await pacers[0]!.take('chat.postMessage', 'C0OTHER');
    await pacers[1]!.take('chat.update');
    expect(Date.now() - other).toBeLessThan(200);
  });

  it("on the budget's own fail-fast connection, a post while Redis is away goes at once, paced locally", async () => {
    // What the bot wires: nothing waits out the deadline, and no take is queued to book a slot later.
    await withRedisAway({ failFast: true }, async (pacer, log) => {
      const started = Date.now();
      await pacer.take('chat.postMessage', 'C0DOWN');
      expect(Date.now() - started).toBeLessThan(300);
      expect(log.lines.join('')).toContain('Slack budget in Redis unreachable: pacing this process alone');
    });
  });

  it('with Redis unreachable, a post goes within about a second, paced by its process alone, and says why', async () => {
    // The bot's own kind of connection: it queues commands until Redis is back, so only the deadline ends the wait.
    await withRedisAway({}, async (pacer, log) => {
      const started = Date.now();
      await pacer.take('chat.postMessage', 'C0DOWN');
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(log.lines.join('')).toContain('Slack budget in Redis unreachable: pacing this process alone');
      // The local pacer's burst, then its pace: no waiting for Redis meanwhile, no unpaced posting.
      await pacer.take('chat.postMessage', 'C0DOWN');
      expect(Date.now() - started).toBeLessThan(1_500);
      await pacer.take('chat.postMessage', 'C0DOWN');
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    });
  });
});
