import type { Actor, ClusterService, Submitted } from './cluster-service.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

// A job id as the queue allocates them: anything else on a button was not put there by the bot.
const JOB_ID = /^job-[1-9][0-9]{0,9}$/;

/**
 * A click on **Roll back Cilium** under a failed Cilium rollout: submits `cilium <cluster>
 * --rollback` for that job's cluster, with the clicker's rights checked exactly as for `cilium`
 * (submit does). Only a rollout that failed offers it; any other button value is refused.
 */
export async function rollBackCilium(
  deps: ServiceDeps,
  submit: ClusterService['submit'],
  actor: Actor,
  jobId: string,
): Promise<Submitted | Refusal> {
  const record = JOB_ID.test(jobId) ? await deps.records.get(jobId) : undefined;
  if (!record) return { code: 'ROLLBACK_NOT_OFFERED', why: 'no-such-job' };
  const { command } = record;
  if (command.verb !== 'cilium' || command.mode !== undefined)
    return { code: 'ROLLBACK_NOT_OFFERED', why: 'not-a-rollout', number: record.number };
  if (record.outcome !== 'failed')
    return { code: 'ROLLBACK_NOT_OFFERED', why: 'not-failed', number: record.number };
  return submit(actor, { verb: 'cilium', cluster: command.cluster, mode: { kind: 'rollback' } }, false);
}
