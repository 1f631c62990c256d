import { isMember } from '../access/access-policy.js';
import { readStoredApprovals } from '../jobs/read-stored-approvals.js';
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
    for (const { stepId, stored: approval } of await readStoredApprovals(deps.redis, deps.keys, job.id)) {
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
