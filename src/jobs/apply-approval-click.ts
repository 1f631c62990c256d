import {
  type ApprovalClick,
  type ApprovalRules,
  type ClickVerdict,
  decideApproval,
  requiredApprovalsOf,
} from '../lifecycle/approval/decide-approval.js';
import type { StoredApproval } from './ports/approval-announcer.js';
import { whyDecideInThread } from './why-decide-in-thread.js';

export interface ClickTarget {
  readonly jobId: string;
  readonly stepId: string;
  readonly approvalId: string;
  /**
   * The message the button was on: a value copied onto another message does not count. Undefined
   * for a button on the clicker's App Home (a view the bot publishes for that person only).
   */
  readonly messageTs: string | undefined;
}

/**
 * One click on the approval as stored: refused unless it names the pending approval and its button
 * was on the request's own message (or the App Home, for what may be decided there), else the
 * cluster's rules decide: then `ruled` is the approval they ruled on, and `next` the approval as
 * the click leaves it when it changes it, what a store writes in place of exactly `stored`.
 */
export function applyApprovalClick(
  stored: StoredApproval | undefined,
  target: ClickTarget,
  click: ApprovalClick,
  rules: ApprovalRules,
): { verdict: ClickVerdict; ruled?: StoredApproval; next?: StoredApproval | undefined } {
  if (!stored || stored.state.status === 'none' || stored.state.id !== target.approvalId) {
    return { verdict: { kind: 'refused', reason: 'this button does not match a pending approval' } };
  }
  // A request whose message never got posted (the post failed, its worker died) was seen by nobody.
  if (stored.messageTs === undefined) {
    return { verdict: { kind: 'refused', reason: 'its request was never shown in the job’s thread' } };
  }
  if (target.messageTs !== undefined && stored.messageTs !== target.messageTs) {
    return { verdict: { kind: 'refused', reason: 'this button does not belong to that approval' } };
  }
  const inThread = target.messageTs === undefined && click.decision === 'approve';
  const why = inThread ? whyDecideInThread(stored.request) : undefined;
  if (why) {
    return {
      verdict: {
        kind: 'refused',
        reason: `approve it in the job’s thread, where it is read whole: ${why}`,
      },
    };
  }
  const needed = { ...rules, requiredApprovals: requiredApprovalsOf(rules, stored.request) };
  const verdict = decideApproval(stored.state, stored.approvals ?? [], click, needed);
  return { verdict, ruled: stored, next: nextRecord(stored, verdict, click) };
}

function nextRecord(
  stored: StoredApproval,
  verdict: ClickVerdict,
  click: ApprovalClick,
): StoredApproval | undefined {
  const state = stored.state;
  if (state.status !== 'pending') return undefined;
  const now = click.at;
  const approvedAt = { ...stored.approvedAt, [click.userId]: now };
  switch (verdict.kind) {
    case 'counted':
      return { ...stored, approvals: verdict.approvals, approvedAt };
    case 'approved':
      return {
        ...stored,
        approvals: verdict.approvals,
        approvedAt,
        decidedAt: now,
        state: { status: 'approved', id: state.id, fingerprint: state.fingerprint, by: verdict.approvals },
      };
    case 'rejected':
      return { ...stored, decidedAt: now, state: { status: 'rejected', id: state.id, by: verdict.by } };
    default:
      return undefined;
  }
}
