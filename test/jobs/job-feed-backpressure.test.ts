import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRedisJobFeed, FEED_HIGH_WATER_CHARS } from '../../src/jobs/create-redis-job-feed.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';

/** A Redis that answers a pipeline only when the test says so; it records the lines each carried. */
function slowRedis() {
  const batches: string[][] = [];
  const answers: Array<() => void> = [];
  const redis = {
    pipeline() {
      const lines: string[] = [];
      const pipeline = {
        // The lines' script: script, key count, key, cap, then a field, value pair per line.
        eval(...args: unknown[]) {
          lines.push(...(args.slice(4) as string[]).filter((_, i) => i % 2 === 1));
          return pipeline;
        },
        xadd: () => pipeline,
        exec() {
          batches.push(lines);
          return new Promise<[null, null][]>((resolve) => answers.push(() => resolve([])));
        },
      };
      return pipeline;
    },
  };
  /** Answers the next pipeline once it is sent (a batch leaves at the end of its tick). */
  const answer = async () => {
    while (answers.length === 0) await turn();
    answers.shift()?.();
  };
  return { redis: redis as unknown as Redis, batches, answer };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the job page feed when Redis is slower than the playbook', () => {
  it('makes the writer wait once a batch is on the wire and another is full, and loses no line', async () => {
    const { redis, batches, answer } = slowRedis();
    const feed = createRedisJobFeed(redis, redisKeys('t'), 'job-1', Date.now, pino({ level: 'silent' }));
    const text = (n: number) => `${n} `.padEnd(1024, 'x');
    let written = 0;
    // Writes until the feed asks the writer to wait, as the ssh line pump does (it awaits each line).
    const writeUntilHeld = async () => {
      for (let more = 0; more < 10_000; more += 1) {
        written += 1;
        const held = feed.line(text(written));
        if (held) return held;
      }
      throw new Error(`${written} lines (${written} KB) written and never asked to wait`);
    };

    // The first full batch leaves at once; the writer may go on while Redis stores it.
    await writeUntilHeld();
    expect(written).toBe(FEED_HIGH_WATER_CHARS / 1024);
    expect(batches).toHaveLength(1);

    // A second full batch while Redis has not answered: the writer waits, nothing more piles up.
    const held = writeUntilHeld();
    let released = false;
    void held.then(() => {
      released = true;
    });
    for (let i = 0; i < 5; i += 1) await turn();
    expect(released).toBe(false);
    expect(written).toBe((2 * FEED_HIGH_WATER_CHARS) / 1024);
    expect(batches).toHaveLength(1);

    // Redis answers: the waiting batch leaves and the writer goes on.
    await answer();
    await held;
    expect(released).toBe(true);
    expect(batches).toHaveLength(2);

    feed.end();
    const flushed = feed.flush();
    await answer();
    await answer();
    await flushed;
    expect(batches.flat()).toEqual(Array.from({ length: written }, (_, i) => text(i + 1)));
  });
});
