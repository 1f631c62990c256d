import { availableParallelism } from 'node:os';

/**
 * The one time scale of every lab deadline: test timeouts, waits, and the lab config's step
 * timeouts. A loaded or small machine runs the same events more slowly, never in another order, so
 * every deadline stretches alike and none outlasts the test holding it. `LAB_TIME_SCALE` sets it;
 * by default it grows as cores shrink (2 on two cores, 1 from four).
 */
export const LAB_TIME_SCALE = labTimeScale(process.env.LAB_TIME_SCALE, availableParallelism());

export function labTimeScale(setting: string | undefined, cores: number): number {
  if (setting === undefined || setting === '') return Math.max(1, 4 / cores);
  const scale = Number(setting);
  if (!Number.isFinite(scale) || scale < 1) {
    throw new Error(`LAB_TIME_SCALE must be a number of at least 1, got "${setting}"`);
  }
  return scale;
}

/** A lab deadline in milliseconds, stretched by the scale. */
export function labMs(ms: number): number {
  return Math.round(ms * LAB_TIME_SCALE);
}
