import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';
import { HOLDS_LEASE, type LeaseFence } from './cluster-lease.js';
import type { CommandBatch } from './command-batch.js';
import type { RedisKeys } from './redis-keys.js';

// -1 (hset's own replies are 0 and 1): the lease is no longer this start's, nothing was written.
const FENCED_HSET = `if ${HOLDS_LEASE} then return redis.call('hset', KEYS[3], ARGV[3], ARGV[4]) end return -1`;

/** A mutating run's checkpoints are written only while it holds its cluster's lease; `lose` says it no longer does. */
export interface CheckpointFence extends LeaseFence {
  lose(): Error;
}

/**
 * Step checkpoints in one Redis hash per job: they outlive the worker that wrote them. A run reads
 * the hash once (the run is the job's only writer, so what it wrote since is what it keeps), and
 * each checkpoint leaves with whatever else the worker sends in the same tick (the step's event
 * for the job page), in one round trip. `load` starts the read, so it can go with the job's others.
 * Once `fenceBy` a lease, a write lands only while the run holds it, so a start of the job another
 * start took over cannot overwrite what the new one records.
 */
export function createRedisCheckpointStore(
  keys: RedisKeys,
  jobId: string,
  batch: CommandBatch,
): CheckpointStore & { load(): Promise<void>; fenceBy(fence: CheckpointFence): void } {
  const key = keys.steps(jobId);
  let stored: Promise<Record<string, string>> | undefined;
  const read = () => {
    // A failed read is not kept: the next one asks Redis again.
    stored ??= batch
      .send((pipeline) => pipeline.hgetall(key))
      .then(([all]) => all as Record<string, string>)
      .catch((error: unknown) => {
        stored = undefined;
        throw error;
      });
    return stored;
  };
  const written = new Map<string, string>();
  let fence: CheckpointFence | undefined;
  return {
    fenceBy(lease) {
      fence = lease;
    },
    async load() {
      await read();
    },
    async get(stepId) {
      const raw = written.get(stepId) ?? (await read())[stepId];
      return raw ? (JSON.parse(raw) as StepRecord) : undefined;
    },
    async set(stepId, record) {
      const raw = JSON.stringify(record);
      const held = fence;
      const [reply] = await batch.send((pipeline) =>
        held
          ? pipeline.eval(FENCED_HSET, 3, ...held.keys, key, ...held.args, stepId, raw)
          : pipeline.hset(key, stepId, raw),
      );
      if (held && reply === -1) throw held.lose();
      // Only once stored: a write Redis refused is not served to the rest of the run.
      written.set(stepId, raw);
    },
  };
}
