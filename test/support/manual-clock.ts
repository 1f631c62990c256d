import type { Clock } from '../../src/lifecycle/ports/clock.js';

/**
 * A clock whose sleeps complete at once, moving time forward: gates and retries run instantly in
 * unit tests while still seeing the time they waited.
 */
export function createInstantClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      now += ms;
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
    },
  };
}
