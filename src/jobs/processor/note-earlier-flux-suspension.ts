import { FLUX_SUSPENDED_EARLIER_FACT } from '../../lifecycle/cilium/flux-steps.js';
import type { JobFacts } from '../../lifecycle/plan/step.js';
import type { JobRecord } from '../job-record.js';
import type { JobProcessorDeps } from './job-processor-deps.js';

/** The verbs whose plans suspend Flux's cilium HelmRelease around cilium.yml. */
const SUSPENDS_FLUX: ReadonlySet<string> = new Set(['cilium', 'up']);

/**
 * Before a cilium or up job runs: tells its steps which earlier bot job left Flux suspended (the Redis
 * record settle keeps), so a suspension the bot made is taken over and resumed while one a person
 * made is left alone. Noted once: a resumed job keeps what it saw first.
 */
export async function noteEarlierFluxSuspension(
  deps: Pick<JobProcessorDeps, 'redis' | 'keys'>,
  record: JobRecord,
  facts: JobFacts,
): Promise<void> {
  if (!SUSPENDS_FLUX.has(record.command.verb) || facts.get(FLUX_SUSPENDED_EARLIER_FACT) !== undefined) return;
  const raw = await deps.redis.get(deps.keys.fluxSuspended(record.command.cluster));
  if (!raw) return;
  await facts.set(FLUX_SUSPENDED_EARLIER_FACT, (JSON.parse(raw) as { jobNumber: number }).jobNumber);
}
