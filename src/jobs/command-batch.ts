import type { ChainableCommander, Redis } from 'ioredis';

/**
 * The worker's Redis commands that happen together, sent together: what is queued in one tick of
 * the event loop leaves as one pipeline (one round trip), however many parts of the job layer
 * queued it. A step transition's checkpoint and its job page event are one write this way; a job's
 * record, cancel mark and checkpoints one read; and several jobs' transitions in the same tick one
 * pipeline. Each sender gets its own replies.
 */
export interface CommandBatch {
  /**
   * Adds commands to the next pipeline: `fill` is called when it leaves (so it may take whatever
   * its sender has queued by then). Resolves with their replies once answered; rejects with the
   * first error among them.
   */
  send(fill: (pipeline: ChainableCommander) => void): Promise<unknown[]>;
}

interface Queued {
  readonly fill: (pipeline: ChainableCommander) => void;
  resolve(replies: unknown[]): void;
  reject(error: unknown): void;
}

export function createCommandBatch(redis: Redis): CommandBatch {
  let queued: Queued[] = [];
  const send = async () => {
    const batch = queued;
    queued = [];
    const pipeline = redis.pipeline();
    // A sender whose fill throws is refused alone (what it had queued still leaves); the others go.
    const filled: { entry: Queued; start: number; end: number }[] = [];
    for (const entry of batch) {
      const start = pipeline.length;
      try {
        entry.fill(pipeline);
        filled.push({ entry, start, end: pipeline.length });
      } catch (error) {
        entry.reject(error);
      }
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      for (const { entry, start, end } of filled) {
        const own = results.slice(start, end);
        const failed = own.find(([error]) => error);
        if (failed) entry.reject(failed[0]);
        else entry.resolve(own.map(([, reply]) => reply));
      }
    } catch (error) {
      for (const { entry } of filled) entry.reject(error);
    }
  };
  return {
    send(fill) {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(send);
        queued.push({ fill, resolve, reject });
      });
    },
  };
}
