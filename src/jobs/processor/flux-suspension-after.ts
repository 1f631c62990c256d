import { FLUX_KEPT_REASON_FACT, FLUX_SUSPENDED_FACT } from '../../lifecycle/cilium/flux-steps.js';
import type { JobFacts } from '../../lifecycle/plan/step.js';

/**
 * What the job's steps recorded about Flux's HelmRelease: suspended, resumed, or (undefined)
 * untouched; and why a job that went well keeps it suspended (a rollback), when it does.
 */
export function fluxSuspensionAfter(facts: JobFacts | undefined): {
  suspended?: boolean | undefined;
  reason?: string | undefined;
} {
  // Whichever verb's steps suspended it (cilium, up): a failed bring-up leaves it suspended too.
  if (!facts) return {};
  return {
    suspended: facts.get<boolean>(FLUX_SUSPENDED_FACT),
    reason: facts.get<string>(FLUX_KEPT_REASON_FACT),
  };
}
