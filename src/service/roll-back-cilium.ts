import { isJobId } from '../jobs/ports/job-id.js';
import { auditRefusal, isRightsRefusal } from './audit-refusal.js';
import type { Actor, ClusterService, Submitted } from './cluster-service.js';
import { followUpClaim } from './follow-up-claim.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * A click on **Roll back Cilium** under a failed Cilium rollout: submits `cilium <cluster>
 * --rollback` for that job's cluster, with the clicker's rights checked exactly as for `cilium`
 * (submit does). Only a rollout that failed offers it; any other button value is refused, and so
 * is a second rollback from the same failed job: a small Redis key per failed job (`rollbackOf`,
 * claimed with SET NX so two clicks at once cannot both pass) holds the rollback job's id.
 * Each click counts against the clicker's per-minute limit as a command does (taken with the
 * rollback's job, or with its refusal), and a click refused for rights or a button that offers
 * nothing is audited: who, which job, when, on which cluster.
 */
export async function rollBackCilium(
  deps: ServiceDeps,
  service: Pick<ClusterService, 'submit' | 'admitCommand'>,
  actor: Actor,
  jobId: string,
): Promise<Submitted | Refusal> {
  const admission = { userId: actor.userId };
  const record = isJobId(jobId) ? await deps.records.get(jobId) : undefined;
  const what = record ? `roll back Cilium from job #${record.number}` : 'roll back Cilium';
  type Why = Extract<Refusal, { code: 'ROLLBACK_NOT_OFFERED' }>['why'];
  const notOffered = async (why: Why, number?: number): Promise<Refusal> => {
    const limited = await service.admitCommand(admission);
    if (limited) return limited;
    await deps.audit.record({
      at: deps.clock.now(),
      who: actor.userId,
      action: 'click-refused',
      // A value that is no job id is not echoed: it is whatever the sender wrote.
      what: `${what}: ${why}`,
      cluster: record?.command.cluster,
      jobId: record?.id,
    });
    return { code: 'ROLLBACK_NOT_OFFERED', why, number };
  };
  if (!record) return notOffered('no-such-job');
  const { command } = record;
  if (command.verb !== 'cilium' || command.mode !== undefined)
    return notOffered('not-a-rollout', record.number);
  if (record.outcome !== 'failed') return notOffered('not-failed', record.number);
  const followUp = followUpClaim(deps, 'rollback', jobId);
  const holder = await followUp.claim();
  if (holder) return notOffered('already-rolled-back', holder.number);
  const submitted = await service.submit(
    actor,
    { verb: 'cilium', cluster: command.cluster, mode: { kind: 'rollback' } },
    false,
    admission,
  );
  await followUp.settle(submitted);
  if (isRefusal(submitted) && isRightsRefusal(submitted))
    await auditRefusal(deps, actor, 'click-refused', what, submitted, record.id);
  return submitted;
}
