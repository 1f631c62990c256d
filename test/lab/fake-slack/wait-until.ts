export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout error, so a failing test says what never happened. */
  description?: string;
}

/** Polls until `probe` returns something truthy and returns it; rejects at the deadline. */
export async function waitUntil<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 5_000, intervalMs = 20, description = 'condition' } = options;
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
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
