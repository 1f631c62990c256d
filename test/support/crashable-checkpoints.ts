import type { CheckpointStore, StepRecord } from '../../src/lifecycle/ports/checkpoint-store.js';

export interface CrashableCheckpoints extends CheckpointStore {
  readonly records: Map<string, StepRecord>;
  /** Whether the worker is dead now (between crash and revive). */
  readonly crashed: boolean;
  /** Settles when the worker dies (at once if it is dead now). */
  death(): Promise<void>;
  /** The worker dies here: every later write is lost, so the store keeps what a killed worker left. */
  crash(): void;
  /** A new worker picks the job up: writes land again. */
  revive(): void;
}

/** An in-memory checkpoint store that can stop taking writes at the moment a worker would have died. */
export function createCrashableCheckpoints(): CrashableCheckpoints {
  const records = new Map<string, StepRecord>();
  let dead = false;
  let died = deathOfOneWorker();
  return {
    records,
    get crashed() {
      return dead;
    },
    get: async (stepId) => structuredClone(records.get(stepId)),
    set: async (stepId, record) => {
      if (!dead) records.set(stepId, structuredClone(record));
    },
    death: () => died.promise,
    crash: () => {
      dead = true;
      died.resolve();
    },
    revive: () => {
      dead = false;
      died = deathOfOneWorker();
    },
  };
}

function deathOfOneWorker(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
