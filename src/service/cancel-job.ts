import { checkAccess, isMember } from '../access/access-policy.js';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import type { Actor, ClusterService } from './cluster-service.js';
import type { ServiceDeps } from './service-deps.js';

/** Only the requester or an approver of the job's cluster may cancel it; the worker stops it at its next check. */
export async function cancelJob(
  deps: ServiceDeps,
  actor: Actor,
  jobNumber: string,
): ReturnType<ClusterService['cancel']> {
  const { world } = deps;
  const denied = await checkAccess(world, deps.members, actor);
  if (denied) return denied;
  const record = await deps.records.get(`job-${jobNumber}`);
  if (!record) return { code: 'NO_SUCH_JOB', number: jobNumber };
  if (record.outcome) return { code: 'JOB_ENDED', number: record.number, outcome: record.outcome };
  const cluster = world.clusters[record.command.cluster]!;
  const allowed =
    actor.userId === record.requestedBy || (await isMember(actor.userId, cluster.approvers, deps.members));
  if (!allowed) return { code: 'NOT_CANCELLER', cluster: cluster.name, number: record.number };
  await deps.records.requestCancel(record.id, actor.userId);
  await deps.queue.promote(record.id);
  await deps.audit.record({
    at: deps.clock.now(),
    who: actor.userId,
    action: 'cancel',
    what: describeCommand(record.command),
    cluster: cluster.name,
    jobId: record.id,
  });
  return { kind: 'cancelling', number: record.number };
}
