import type { CheckpointStore, StepRecord } from '../../src/lifecycle/ports/checkpoint-store.js';

export function createMemoryCheckpoints(): CheckpointStore & { records: Map<string, StepRecord> } {
  const records = new Map<string, StepRecord>();
  return {
    records,
    get: async (stepId) => records.get(stepId),
    set: async (stepId, record) => {
      records.set(stepId, structuredClone(record));
    },
  };
}
