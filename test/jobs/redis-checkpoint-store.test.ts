import type { ChainableCommander } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CommandBatch } from '../../src/jobs/command-batch.js';
import { createRedisCheckpointStore } from '../../src/jobs/redis-checkpoint-store.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';

/** A batch over an in-memory hash, refusing the next `failures` sends as a Redis in trouble would. */
function hashBatch(hash: Map<string, string>) {
  let failures = 0;
  const batch: CommandBatch = {
    async send(fill) {
      const replies: unknown[] = [];
      const pipeline = {
        hgetall: () => replies.push(Object.fromEntries(hash)),
        hset: (_key: string, field: string, value: string) => {
          replies.push(1);
          if (failures === 0) hash.set(field, value);
        },
      };
      fill(pipeline as unknown as ChainableCommander);
      if (failures > 0) {
        failures -= 1;
        throw new Error('READONLY You cannot write against a read only replica.');
      }
      return replies;
    },
  };
  return { batch, failNext: (count: number) => (failures = count) };
}

const keys = redisKeys('cbtest-checkpoints');
const ran = { status: 'succeeded', startedAt: 1, finishedAt: 2 } as const;

describe('the Redis checkpoint store', () => {
  it('asks Redis again after a failed first read, instead of keeping the failure for the run', async () => {
    const redis = hashBatch(new Map([['1-verify', JSON.stringify(ran)]]));
    const store = createRedisCheckpointStore(keys, 'job-1', redis.batch);
    redis.failNext(1);
    await expect(store.load()).rejects.toThrow(/READONLY/);
    expect(await store.get('1-verify')).toEqual(ran);
  });

  it('does not serve a checkpoint Redis refused to store', async () => {
    const redis = hashBatch(new Map([['1-verify', JSON.stringify({ status: 'running', startedAt: 1 })]]));
    const store = createRedisCheckpointStore(keys, 'job-1', redis.batch);
    await store.load();
    redis.failNext(1);
    await expect(store.set('1-verify', ran)).rejects.toThrow(/READONLY/);
    expect(await store.get('1-verify')).toEqual({ status: 'running', startedAt: 1 });
  });
});
