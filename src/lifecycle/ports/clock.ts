/** Time, injected so gates and timeouts run fast in tests and never sleep a fixed amount there. */
export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
