/**
 * Every promise's value, once all have settled; else the first failure in the list's order, not the
 * first in time: checks run at once refuse as the same checks run one after another would.
 */
export async function allInOrder<T extends readonly unknown[]>(
  promises: readonly [...T],
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
