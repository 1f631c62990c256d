import type { CheckpointStore, StepRecord } from '../../src/lifecycle/ports/checkpoint-store.js';

export interface CrashableCheckpoints extends CheckpointStore {
  readonly records: Map<string, StepRecord>;
  /** The worker dies here: every later write is lost, so the store keeps what a killed worker left. */
  crash(): void;
  /** A new worker picks the job up: writes land again. */
  revive(): void;
}

/** An in-memory checkpoint store that can stop taking writes at the moment a worker would have died. */
export function createCrashableCheckpoints(): CrashableCheckpoints {
  const records = new Map<string, StepRecord>();
  let dead = false;
  return {
    records,
    get: async (stepId) => structuredClone(records.get(stepId)),
    set: async (stepId, record) => {
      if (!dead) records.set(stepId, structuredClone(record));
    },
    crash: () => {
      dead = true;
    },
    revive: () => {
      dead = false;
    },
  };
}
