import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandBatch } from '../../src/jobs/command-batch.js';
import { createCleanupStack } from '../support/cleanup-stack.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const cleanup = createCleanupStack();
afterEach(() => cleanup.run());

describe('command batch', () => {
  it('a sender whose fill throws is refused alone: the others of its tick get their replies', async () => {
    const { prefix, cleanup: removeKeys } = uniquePrefix('command-batch');
    cleanup.push(removeKeys);
    const redis = new Redis(REDIS_URL);
    cleanup.push(async () => redis.disconnect());
    const batch = createCommandBatch(redis);
    const before = batch.send((pipeline) => pipeline.set(`${prefix}:a`, '1'));
    const broken = batch.send(() => {
      throw new Error('cannot serialise the checkpoint');
    });
    const after = batch.send((pipeline) => pipeline.incr(`${prefix}:b`));
    await expect(broken).rejects.toThrow('cannot serialise the checkpoint');
    expect(await before).toEqual(['OK']);
    expect(await after).toEqual([1]);
  });
});
