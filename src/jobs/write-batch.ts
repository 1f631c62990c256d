import type { ChainableCommander, Redis } from 'ioredis';

/**
 * The worker's writes that happen together, sent together: what is queued in one tick of the
 * event loop leaves as one pipeline (one round trip), however many parts of the job layer queued
 * it. A step transition's checkpoint and its job page event are one write this way; so are the
 * writes of several jobs' transitions in the same tick. Each writer learns whether its own
 * commands were stored.
 */
export interface WriteBatch {
  /**
   * Adds commands to the next pipeline: `fill` is called when it leaves (so it may take whatever
   * its writer has queued by then). Resolves once stored; rejects with the first error among its
   * own commands.
   */
  write(fill: (pipeline: ChainableCommander) => void): Promise<void>;
}

interface Queued {
  readonly fill: (pipeline: ChainableCommander) => void;
  resolve(): void;
  reject(error: unknown): void;
}

export function createWriteBatch(redis: Redis): WriteBatch {
  let queued: Queued[] = [];
  const send = async () => {
    const batch = queued;
    queued = [];
    const pipeline = redis.pipeline();
    const ends = batch.map((entry) => {
      entry.fill(pipeline);
      return pipeline.length;
    });
    try {
      const results = (await pipeline.exec()) ?? [];
      batch.forEach((entry, index) => {
        const failed = results.slice(ends[index - 1] ?? 0, ends[index]).find(([error]) => error);
        if (failed) entry.reject(failed[0]);
        else entry.resolve();
      });
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  };
  return {
    write(fill) {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(send);
        queued.push({ fill, resolve, reject });
      });
    },
  };
}
