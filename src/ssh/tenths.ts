/** Milliseconds to a tenth, as the ssh log lines give them. */
export const tenths = (ms: number): number => Math.round(ms * 10) / 10;
