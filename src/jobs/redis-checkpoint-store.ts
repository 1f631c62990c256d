import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';
import type { CommandBatch } from './command-batch.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * Step checkpoints in one Redis hash per job: they outlive the worker that wrote them. A run reads
 * the hash once (the run is the job's only writer, so what it wrote since is what it keeps), and
 * each checkpoint leaves with whatever else the worker sends in the same tick (the step's event
 * for the job page), in one round trip. `load` starts the read, so it can go with the job's others.
 */
export function createRedisCheckpointStore(
  keys: RedisKeys,
  jobId: string,
  batch: CommandBatch,
): CheckpointStore & { load(): Promise<void> } {
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
  return {
    async load() {
      await read();
    },
    async get(stepId) {
      const raw = written.get(stepId) ?? (await read())[stepId];
      return raw ? (JSON.parse(raw) as StepRecord) : undefined;
    },
    async set(stepId, record) {
      const raw = JSON.stringify(record);
      await batch.send((pipeline) => pipeline.hset(key, stepId, raw));
      // Only once stored: a write Redis refused is not served to the rest of the run.
      written.set(stepId, raw);
    },
  };
}
