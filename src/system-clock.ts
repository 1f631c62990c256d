import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './lifecycle/ports/clock.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await sleep(ms, undefined, { signal });
  },
};
