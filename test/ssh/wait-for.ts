/** Polls until `check` returns a value other than undefined, or fails after the deadline. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  deadlineMs = 5000,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
