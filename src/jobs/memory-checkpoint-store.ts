import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';

/**
 * For runs that are never resumed (a scheduled verify simply runs again next time). Records are
 * copied in, as Redis would, so a later change to the engine's object cannot rewrite history.
 */
export function createMemoryCheckpointStore(): CheckpointStore & {
  readonly records: ReadonlyMap<string, StepRecord>;
} {
  const records = new Map<string, StepRecord>();
  return {
    records,
    get: async (stepId) => records.get(stepId),
    set: async (stepId, record) => {
      records.set(stepId, structuredClone(record));
    },
  };
}
