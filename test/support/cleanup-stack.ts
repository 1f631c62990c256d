import { afterEach } from 'vitest';

export type Cleanup = () => unknown;

/** What a test or a lab started, undone newest first: what was started later leans on what came before. */
export interface CleanupStack {
  push(...cleanups: Cleanup[]): void;
  /** Runs and forgets every cleanup; each runs even if one before it failed, then the first failure is thrown. */
  run(): Promise<void>;
}

export function createCleanupStack(): CleanupStack {
  const cleanups: Cleanup[] = [];
  return {
    push: (...more) => {
      cleanups.push(...more);
    },
    async run() {
      const failures: unknown[] = [];
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
    },
  };
}

/** A stack that a test fills as it starts things and that empties after each test of the file. */
export function cleanupAfterEach(): CleanupStack {
  const stack = createCleanupStack();
  afterEach(() => stack.run());
  return stack;
}
