/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Rounds for reporting: figures are read by people and diffed by tools, not recomputed. */
export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
