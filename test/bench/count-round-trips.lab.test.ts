import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchRedis, startBenchRedis } from '../../bench/bench-redis.js';
import { createRoundTripCounter } from '../../bench/count-round-trips.js';
import { connectRedis } from '../../src/app/connect-redis.js';
import { readEnv } from '../../src/config/read-env.js';
import { labMs } from '../support/lab-time.js';

let cluster: BenchRedis;
beforeAll(async () => {
  cluster = await startBenchRedis('cluster');
}, labMs(30_000));
afterAll(() => cluster?.stop());

describe('Redis round trips counted on the client', () => {
  it.each(['single', 'cluster'] as const)(
    'counts a command, a pipeline and a MULTI one each (%s Redis)',
    async (mode) => {
      const redis = mode === 'cluster' ? cluster : await startBenchRedis('single');
      const { env, prefix, cleanup } = redis.space('round-trips');
      const trips = createRoundTripCounter();
      const connection: Redis = trips.watch(connectRedis(readEnv(env)));
      const copy = connection.duplicate();
      try {
        await connection.set(`${prefix}:a`, '1');
        await connection.get(`${prefix}:a`);
        await connection.pipeline().incr(`${prefix}:a`).incr(`${prefix}:a`).get(`${prefix}:a`).exec();
        const [[, value]] = (await connection.multi().incr(`${prefix}:a`).exec()) as [[null, number]];
        expect(value).toBe(4);
        // A duplicate counts too: BullMQ's worker makes its blocking connection as one.
        expect(await copy.get(`${prefix}:a`)).toBe('4');
        expect(trips.count()).toBe(5);
      } finally {
        copy.disconnect();
        connection.disconnect();
        await cleanup();
      }
    },
  );
});
