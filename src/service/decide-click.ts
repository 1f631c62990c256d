import { isMember } from '../access/access-policy.js';
import { parseApprovalId } from '../jobs/approval-id.js';
import type { AuditAction } from '../jobs/audit-log.js';
import { requiredApprovalsOf } from '../lifecycle/approval/decide-approval.js';
import type { Actor, ApprovalClick, Decision, ShowDecision } from './cluster-service.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * One Approve/Reject click, from the job's thread or the clicker's App Home. Rights are checked now
 * (groups resolved now), a thread's button must be the one on the pending approval's own message, and
 * the cluster's rules decide, in one compare-and-set whichever surface the click came from: the first
 * decision stands, the other surface's buttons are stale. A counted or decided
 * click is shown (`show`) before the job is woken.
 *
 * Slightly long on purpose: one switch over the verdicts, so what each audits and shows reads together.
 */
export async function decideClick(
  deps: ServiceDeps,
  actor: Actor,
  click: ApprovalClick,
  show: ShowDecision,
): Promise<Decision | Refusal> {
  const target = parseApprovalId(click.value);
  const record = target && (await deps.records.get(target.jobId));
  const cluster = record && deps.world.clusters[record.command.cluster];
  const thread = record && (await deps.threads.load(record));
  const stepIndex = thread?.board.steps.findIndex((step) => step.id === target?.stepId) ?? -1;
  // A value that is no approval id is not echoed anywhere: it is whatever the sender wrote.
  const audit = (action: AuditAction, what: string) =>
    deps.audit.record({
      at: deps.clock.now(),
      who: actor.userId,
      action,
      what,
      cluster: cluster?.name,
      jobId: target?.jobId,
      stepId: target?.stepId,
      stepNumber: stepIndex >= 0 ? stepIndex + 1 : undefined,
      approvalId: target ? click.value : undefined,
      via: 'onHome' in click ? 'app-home' : 'thread',
    });
  if (!target || !record || !cluster || !thread) {
    await audit('click-refused', `${click.decision}: the button matches no pending approval`);
    return { code: 'NO_SUCH_APPROVAL' };
  }
  const isApprover = await isMember(actor.userId, cluster.approvers, deps.members);
  const { verdict, stored } = await deps.approvals.applyClick(
    { ...target, approvalId: click.value, messageTs: 'onHome' in click ? undefined : click.messageTs },
    {
      userId: actor.userId,
      decision: click.decision,
      isApprover,
      requestedBy: record.requestedBy,
      at: deps.clock.now(),
    },
    cluster,
    deps.clock,
  );
  const step = stored?.request?.stepTitle ?? target.stepId;
  const required = requiredApprovalsOf(cluster, stored?.request);
  switch (verdict.kind) {
    case 'refused':
      await audit('click-refused', `${click.decision} ${step}: ${verdict.reason}`);
      return { code: 'CLICK_REFUSED', reason: verdict.reason };
    case 'already-counted':
      // Not a second approval: the trail must not show one person approving twice.
      await audit('click-refused', `approve ${step}: already counted`);
      return { kind: 'already-counted', missing: verdict.missing };
    case 'counted': {
      const count = verdict.approvals.length;
      await audit('approve', `${step} (${count}/${required})`);
      const counted: Decision = {
        kind: 'counted',
        userId: actor.userId,
        step,
        count,
        required,
        missing: verdict.missing,
        thread: { channel: thread.channel, threadTs: thread.threadTs },
      };
      await show(counted);
      return counted;
    }
    case 'approved':
    case 'rejected': {
      await audit(
        verdict.kind === 'approved' ? 'approve' : 'reject',
        verdict.kind === 'approved'
          ? `${step}: approved (${verdict.approvals.length}/${required})`
          : `${step}: rejected`,
      );
      if (stored?.requestedAt !== undefined) {
        deps.metrics.approvalWait.observe(
          { decision: verdict.kind },
          (deps.clock.now() - stored.requestedAt) / 1_000,
        );
      }
      const decided: Decision = {
        kind: 'decided',
        verdict: verdict.kind,
        stored,
        at: deps.clock.now(),
        thread: { channel: thread.channel, threadTs: thread.threadTs },
      };
      await show(decided);
      await deps.queue.promote(record.id);
      return decided;
    }
  }
}
