import type { ApprovalRequest, ApprovalState } from '../../lifecycle/ports/approval-desk.js';

export interface StoredApproval {
  readonly state: ApprovalState;
  readonly request?: ApprovalRequest | undefined;
  /** Where its message with the buttons is, so a decision can replace them. */
  readonly messageTs?: string | undefined;
  readonly approvals?: readonly string[] | undefined;
  readonly decidedAt?: number | undefined;
  readonly requestedAt?: number | undefined;
}

export interface ApprovalAnnouncer {
  /** Shows a new approval request to the approvers; returns its message ts. */
  announce(
    jobId: string,
    approvalId: string,
    request: ApprovalRequest,
    expiresAt: number,
  ): Promise<string | undefined>;
  /** Marks an approval message as no longer actionable (expired / voided). */
  close(jobId: string, stored: StoredApproval, reason: string): Promise<void>;
}
