import { isClusterBotError } from '../../errors.js';

/**
 * Runs read-only checks that throw their refusal, and collects every refusal instead of stopping at
 * the first; anything but a refusal (a cancel, a bug) still throws.
 */
export async function refusalsOf(checks: readonly (() => Promise<unknown>)[]): Promise<string[]> {
  const refusals: string[] = [];
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
      const failures = error.details.failures;
      refusals.push(
        ...(Array.isArray(failures) && error.code === 'PRECONDITION_FAILED' && !error.details.playbook
          ? (failures as string[])
          : [error.message]),
      );
    }
  }
  return refusals;
}
