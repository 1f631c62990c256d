import { isMember } from '../access/access-policy.js';
import { whyDecideInThread } from '../jobs/why-decide-in-thread.js';
import { requiredApprovalsOf } from '../lifecycle/approval/decide-approval.js';
import type { ClusterOverview, PendingApproval } from './cluster-service.js';
import type { ServiceDeps } from './service-deps.js';

/** The approvals still pending on a cluster's unfinished jobs, what each needs, and whether `userId` may approve or reject it. */
export async function readPendingApprovals(
  deps: ServiceDeps,
  overview: ClusterOverview,
  userId: string,
): Promise<PendingApproval[]> {
  const cluster = deps.world.clusters[overview.cluster];
  if (!cluster) return [];
  const isApprover = await isMember(userId, cluster.approvers, deps.members);
  const pending: PendingApproval[] = [];
  for (const job of overview.open) {
    const ownJob = job.record?.requestedBy === userId;
    for (const { stepId, stored: approval } of await deps.approvals.read(job.id)) {
      if (approval.state.status !== 'pending') continue;
      const binding = approval.request?.binding;
      pending.push({
        jobId: job.id,
        stepId,
        approvalId: approval.state.id,
        stepTitle: approval.request?.stepTitle ?? stepId,
        approvals: approval.approvals ?? [],
        required: requiredApprovalsOf(cluster, approval.request),
        mayApprove: isApprover && (cluster.allowSelfApproval || !ownJob),
        mayReject: isApprover,
        runs: {
          commandLine: binding?.commandLine ?? stepId,
          targets: binding?.targets ?? '',
          commit: binding?.commit?.slice(0, 12),
        },
        decideInThread: whyDecideInThread(approval.request),
        message:
          job.record && approval.messageTs
            ? { channel: job.record.channel, ts: approval.messageTs }
            : undefined,
      });
    }
  }
  return pending;
}
