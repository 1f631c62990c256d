import { type ClusterBotError, isClusterBotError } from '../../errors.js';

/**
 * Runs checks that throw their refusal, and collects every refusal instead of stopping at the
 * first; anything but a refusal (a cancel, a bug) still throws.
 */
export async function collectRefusals(
  checks: readonly (() => Promise<unknown>)[],
): Promise<ClusterBotError[]> {
  const refusals: ClusterBotError[] = [];
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
      refusals.push(error);
    }
  }
  return refusals;
}

/** A refusal's reasons as sentences: a precondition's own list, else its message. */
export function reasonsOf(refusal: ClusterBotError): string[] {
  const failures = refusal.details.failures;
  return Array.isArray(failures) && refusal.code === 'PRECONDITION_FAILED' && !refusal.details.playbook
    ? (failures as string[])
    : [refusal.message];
}

/** Every refusal of read-only checks, as sentences (what `plan` lists). */
export async function refusalsOf(checks: readonly (() => Promise<unknown>)[]): Promise<string[]> {
  return (await collectRefusals(checks)).flatMap(reasonsOf);
}
