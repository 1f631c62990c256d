import type { ApprovalRequest, ApprovalState } from '../ports/approval-desk.js';

export interface ApprovalRules {
  readonly requiredApprovals: number;
  readonly allowSelfApproval: boolean;
}

export interface ApprovalClick {
  readonly userId: string;
  readonly decision: 'approve' | 'reject';
  /** Whether the clicker is an approver of the cluster, resolved at click time. */
  readonly isApprover: boolean;
  readonly requestedBy: string;
  /** When it was clicked: a click at or after the approval's expiry is refused. */
  readonly at: number;
}

export type ClickVerdict =
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'counted'; readonly approvals: readonly string[]; readonly missing: number }
  | { readonly kind: 'already-counted'; readonly approvals: readonly string[]; readonly missing: number }
  | { readonly kind: 'approved'; readonly approvals: readonly string[] }
  | { readonly kind: 'rejected'; readonly by: string };

/** How many distinct approvers a request needs: the cluster's count, or more when its step asks. */
export function requiredApprovalsOf(
  rules: Pick<ApprovalRules, 'requiredApprovals'>,
  request: Pick<ApprovalRequest, 'minimumApprovals'> | undefined,
): number {
  return Math.max(rules.requiredApprovals, request?.minimumApprovals ?? 1);
}

/**
 * The cluster's approval rules applied to one click on a pending approval. Pure: the caller has
 * already checked that the click is for the pending approval it names.
 */
export function decideApproval(
  state: ApprovalState,
  approvals: readonly string[],
  click: ApprovalClick,
  rules: ApprovalRules,
): ClickVerdict {
  if (state.status !== 'pending')
    return { kind: 'refused', reason: `this approval is no longer pending (${state.status})` };
  // The worker expires it only when it wakes, which may be late (busy or down): the click says so now.
  if (click.at >= state.expiresAt) {
    const at = new Date(state.expiresAt).toISOString().slice(11, 16);
    return { kind: 'refused', reason: `this approval expired at ${at} UTC` };
  }
  if (!click.isApprover) return { kind: 'refused', reason: 'you are not an approver of this cluster' };
  if (click.decision === 'reject') return { kind: 'rejected', by: click.userId };
  if (!rules.allowSelfApproval && click.userId === click.requestedBy) {
    return {
      kind: 'refused',
      reason: 'you asked for this job, and this cluster does not allow self-approval',
    };
  }
  if (approvals.includes(click.userId)) {
    return { kind: 'already-counted', approvals, missing: rules.requiredApprovals - approvals.length };
  }
  const next = [...approvals, click.userId];
  if (next.length >= rules.requiredApprovals) return { kind: 'approved', approvals: next };
  return { kind: 'counted', approvals: next, missing: rules.requiredApprovals - next.length };
}
