import type { Redis } from 'ioredis';
import { type GroupMembers, isMember } from '../access/access-policy.js';
import type { WorldConfig } from '../config/world-config.js';
import type { AuditAction, AuditLog } from '../jobs/audit-log.js';
import type { JobQueue } from '../jobs/create-job-queue.js';
import { parseApprovalId } from '../jobs/create-redis-approval-desk.js';
import type { JobRecords } from '../jobs/job-record.js';
import { recordApprovalClick } from '../jobs/record-approval-click.js';
import type { RedisKeys } from '../jobs/redis-keys.js';
import type { Logger } from '../log/create-logger.js';
import type { Metrics } from '../metrics/create-metrics.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { renderDecision } from './render-decision.js';
import type { SlackPoster } from './slack-poster.js';

export interface ApprovalClickRequest {
  readonly userId: string;
  readonly decision: 'approve' | 'reject';
  readonly value: string;
  readonly channel: string;
  readonly messageTs: string;
}

export interface ApprovalClickDeps {
  readonly world: WorldConfig;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly records: JobRecords;
  readonly members: GroupMembers;
  readonly poster: SlackPoster;
  readonly queue: JobQueue;
  readonly logger: Logger;
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly metrics: Metrics;
  readonly threadOf: (jobId: string) => Promise<{ channel: string; threadTs?: string | undefined }>;
}

/**
 * One Approve/Reject click. Rights are checked now (groups resolved now), the button must be the
 * one on the pending approval's own message, and the cluster's rules decide. Returns the text for
 * an ephemeral answer to the clicker, or undefined when the thread says it all.
 */
export async function handleApprovalClick(
  click: ApprovalClickRequest,
  deps: ApprovalClickDeps,
): Promise<string | undefined> {
  const target = parseApprovalId(click.value);
  const record = target && (await deps.records.get(target.jobId));
  const cluster = record && deps.world.clusters[record.command.cluster];
  // A value that is no approval id is not echoed anywhere: it is whatever the sender wrote.
  const audit = (action: AuditAction, what: string) =>
    deps.audit.record({
      at: deps.now(),
      who: click.userId,
      action,
      what,
      jobId: target?.jobId,
      stepId: target?.stepId,
      approvalId: target ? click.value : undefined,
    });
  if (!target || !record || !cluster) {
    await audit('click-refused', `${click.decision}: the button matches no pending approval`);
    return '⛔ This button does not match a pending approval; nothing changed.';
  }
  const isApprover = await isMember(click.userId, cluster.approvers, deps.members);
  const { verdict, stored } = await recordApprovalClick(
    deps.redis,
    deps.keys,
    { ...target, approvalId: click.value, messageTs: click.messageTs },
    {
      userId: click.userId,
      decision: click.decision,
      isApprover,
      requestedBy: record.requestedBy,
      at: deps.now(),
    },
    cluster,
  );
  const step = stored?.request?.stepTitle ?? target.stepId;
  switch (verdict.kind) {
    case 'refused':
      await audit('click-refused', `${click.decision} ${step}: ${verdict.reason}`);
      return `⛔ ${verdict.reason}; nothing changed.`;
    case 'already-counted':
      // Not a second approval: the trail must not show one person approving twice.
      await audit('click-refused', `approve ${step}: already counted`);
      return `Your approval is already counted; ${verdict.missing} more needed.`;
    case 'counted':
      await audit('approve', `${step} (${verdict.approvals.length}/${cluster.requiredApprovals})`);
      await deps.poster.post({
        ...(await deps.threadOf(record.id)),
        text: `👍 <@${click.userId}> approved ${escapeMrkdwn(step)} (${verdict.approvals.length}/${cluster.requiredApprovals}); ${verdict.missing} more needed.`,
      });
      return undefined;
    case 'approved':
    case 'rejected': {
      await audit(
        verdict.kind === 'approved' ? 'approve' : 'reject',
        verdict.kind === 'approved'
          ? `${step}: approved (${verdict.approvals.length}/${cluster.requiredApprovals})`
          : `${step}: rejected`,
      );
      if (stored?.requestedAt !== undefined) {
        deps.metrics.approvalWait.observe(
          { decision: verdict.kind },
          (deps.now() - stored.requestedAt) / 1_000,
        );
      }
      if (stored) {
        await deps.poster.update({
          channel: click.channel,
          ts: click.messageTs,
          ...renderDecision(stored, deps.now()),
        });
      }
      await deps.queue.promote(record.id);
      return undefined;
    }
  }
}
