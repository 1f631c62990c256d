import type { Actor, ClusterService, Submitted } from './cluster-service.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

// A job id as the queue allocates them: anything else on a button was not put there by the bot.
const JOB_ID = /^job-[1-9][0-9]{0,9}$/;

/** As long as a failed job's thread is worth clicking in. */
const CLAIM_SECONDS = 30 * 24 * 3_600;

/**
 * A click on **Roll back Cilium** under a failed Cilium rollout: submits `cilium <cluster>
 * --rollback` for that job's cluster, with the clicker's rights checked exactly as for `cilium`
 * (submit does). Only a rollout that failed offers it; any other button value is refused, and so
 * is a second rollback from the same failed job: a small Redis key per failed job (`rollbackOf`,
 * claimed with SET NX so two clicks at once cannot both pass) holds the rollback job's id.
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
  const key = deps.keys.rollbackOf(jobId);
  if ((await deps.redis.set(key, 'claimed', 'EX', CLAIM_SECONDS, 'NX')) === null) {
    // 'claimed' while the other click's submit is still under way: no job number to name yet.
    const rollbackId = await deps.redis.get(key);
    const rollback = rollbackId && JOB_ID.test(rollbackId) ? await deps.records.get(rollbackId) : undefined;
    return { code: 'ROLLBACK_NOT_OFFERED', why: 'already-rolled-back', number: rollback?.number };
  }
  const submitted = await submit(
    actor,
    { verb: 'cilium', cluster: command.cluster, mode: { kind: 'rollback' } },
    false,
  );
  // A refused submit (rights, a busy cluster) queued nothing: the button stays usable.
  if (isRefusal(submitted)) await deps.redis.del(key);
  else await deps.redis.set(key, submitted.jobId, 'EX', CLAIM_SECONDS);
  return submitted;
}
