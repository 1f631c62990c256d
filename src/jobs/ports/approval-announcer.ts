import type { ApprovalRequest, ApprovalState } from '../../lifecycle/ports/approval-desk.js';

export interface StoredApproval {
  readonly state: ApprovalState;
  readonly request?: ApprovalRequest | undefined;
  /** Where its message with the buttons is, so a decision can replace them. */
  readonly messageTs?: string | undefined;
  readonly approvals?: readonly string[] | undefined;
  /** When each approval in `approvals` was counted, by approver (the job page lists them). */
  readonly approvedAt?: Readonly<Record<string, number>> | undefined;
  readonly decidedAt?: number | undefined;
  readonly requestedAt?: number | undefined;
  /** How many reminders its approvers were sent (approval-reminder-times.ts). */
  readonly reminded?: number | undefined;
}

export interface ApprovalAnnouncer {
  /** Shows a new approval request to the approvers; returns its message ts. */
  announce(
    jobId: string,
    approvalId: string,
    request: ApprovalRequest,
    expiresAt: number,
  ): Promise<string | undefined>;
  /** Reminds the approvers, `at` a time before `expiresAt`, that a request still waits, pointing at its message. */
  remind(
    jobId: string,
    stored: StoredApproval,
    when: { readonly expiresAt: number; readonly at: number },
  ): Promise<void>;
  /** Marks an approval message as no longer actionable (expired / voided). */
  close(jobId: string, stored: StoredApproval, reason: string): Promise<void>;
}
