import type { CheckpointStore, StepRecord } from '../lifecycle/ports/checkpoint-store.js';

/** For runs that are never resumed (a scheduled verify simply runs again next time). */
export function createMemoryCheckpointStore(): CheckpointStore {
  const records = new Map<string, StepRecord>();
  return {
    get: async (stepId) => records.get(stepId),
    set: async (stepId, record) => {
      records.set(stepId, record);
    },
  };
}
