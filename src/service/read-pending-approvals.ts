import { isMember } from '../access/access-policy.js';
import type { StoredApproval } from '../jobs/ports/approval-announcer.js';
import type { ClusterOverview, PendingApproval } from './cluster-service.js';
import type { ServiceDeps } from './service-deps.js';

/** The approvals still pending on a cluster's unfinished jobs, and whether `userId` may decide them. */
export async function readPendingApprovals(
  deps: ServiceDeps,
  overview: ClusterOverview,
  userId: string,
): Promise<PendingApproval[]> {
  const cluster = deps.world.clusters[overview.cluster];
  if (!cluster) return [];
  const mayDecide = await isMember(userId, cluster.approvers, deps.members);
  const pending: PendingApproval[] = [];
  for (const job of overview.open) {
    const stored = await deps.redis.hgetall(deps.keys.approvals(job.id));
    for (const [stepId, raw] of Object.entries(stored)) {
      const approval = JSON.parse(raw) as StoredApproval;
      if (approval.state.status !== 'pending') continue;
      pending.push({
        jobId: job.id,
        stepId,
        approvalId: approval.state.id,
        stepTitle: approval.request?.stepTitle ?? stepId,
        approvals: approval.approvals ?? [],
        mayDecide,
      });
    }
  }
  return pending;
}
