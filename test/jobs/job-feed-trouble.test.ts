import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisJobFeed } from '../../src/jobs/create-redis-job-feed.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';

/** A Redis whose every pipeline fails, counting the pipelines and the entries they carried. */
function brokenRedis() {
  const sent: number[] = [];
  const redis = {
    pipeline() {
      let commands = 0;
      const pipeline = {
        xadd() {
          commands += 1;
          return pipeline;
        },
        // The lines' script: script, key count, key, cap, then a field, value pair per line.
        eval(...args: unknown[]) {
          commands += (args.length - 4) / 2;
          return pipeline;
        },
        exec() {
          sent.push(commands);
          return Promise.reject(new Error('READONLY You cannot write against a read only replica'));
        },
      };
      return pipeline;
    },
  };
  return { redis: redis as unknown as Redis, sent };
}

describe('the job page feed when Redis refuses writes', () => {
  it('never fails the job: lines and events still return, the trouble is logged once', async () => {
    const { redis, sent } = brokenRedis();
    const { logger, lines } = captureLogger(createRedactor());
    const feed = createRedisJobFeed(redis, redisKeys('t'), 'job-1', Date.now, logger);
    for (let i = 0; i < 12_000; i += 1) await feed.line(`line ${i}`);
    feed.event({ type: 'step-started', stepId: 'a' });
    feed.end();
    await feed.flush();
    // Batched: 12,003 writes (the lines, the step's mark in the log, its event, the end) left in a
    // handful of pipelines, not one round trip each.
    expect(sent.length).toBeLessThan(6);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(12_003);
    const warnings = lines.filter((line) => line.includes('job page feed: write failed'));
    expect(warnings).toHaveLength(1);
  });
});
