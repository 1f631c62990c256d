import { labMs } from './lab-time.js';

export interface WaitForOptions {
  /** The deadline on a quiet machine; stretched by the lab's time scale (lab-time.ts). */
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
}

type Falsy = undefined | null | false;

/**
 * Polls `probe` until it returns something truthy and returns that, or rejects at the deadline naming
 * `what` never happened. A probe that throws is tried again (the thing it reads may not exist yet);
 * its last error is the timeout's cause.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Falsy | Promise<T | Falsy>,
  options: WaitForOptions = {},
): Promise<T> {
  const { intervalMs = 20 } = options;
  const timeoutMs = labMs(options.timeoutMs ?? 5_000);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
