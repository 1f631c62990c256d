import { type ClusterBotError, isClusterBotError } from '../../errors.js';

/**
 * Runs checks that throw their refusal, all at once (each mostly waits on the ops host), and
 * collects every refusal, in the checks' order, instead of stopping at the first; anything but a
 * refusal (a cancel, a bug) still throws, the first in that order.
 */
export async function collectRefusals(
  checks: readonly (() => Promise<unknown>)[],
): Promise<ClusterBotError[]> {
  const settled = await Promise.allSettled(checks.map(async (check) => check()));
  const refusals: ClusterBotError[] = [];
  for (const result of settled) {
    if (result.status === 'fulfilled') continue;
    const error: unknown = result.reason;
    if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
    refusals.push(error);
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
