/**
 * Approvals as the engine sees them: it asks, and on its next run reads the decision.
 * The job layer implements it (Redis + Slack buttons), so waiting holds no worker.
 */

export interface CheckPreview {
  /** False when check mode itself could not run; `failure` says why, and asking goes on. */
  readonly ran: boolean;
  readonly failure?: string | undefined;
  /** Hosts and the tasks that would change on each. */
  readonly changedTasks: Readonly<Record<string, readonly string[]>>;
  readonly diffExcerpt: string;
}

/** What an approval is bound to: a decision covers exactly this, nothing else. */
export interface ApprovalBinding {
  readonly commandLine: string;
  readonly targets: string;
  readonly commit?: string | undefined;
  readonly fingerprint: string;
  readonly preview?: CheckPreview | undefined;
  /** The Cilium preflight's verdict at this commit, with what it could not check named. */
  readonly preflight?: string | undefined;
  /** What is lost for good once it runs, in words (a restore: everything written since the snapshot). */
  readonly consequence?: string | undefined;
}

export interface ApprovalRequest {
  readonly stepId: string;
  readonly stepTitle: string;
  readonly cluster: string;
  /** Why this step is disruptive, in the operators' words. */
  readonly reason: string;
  /** An extra warning shown prominently (re-running the founder node, an interrupted step). */
  readonly warning?: string | undefined;
  readonly binding: ApprovalBinding;
  /** Distinct approvers it needs at least, beyond the cluster's count (the step's policy says). */
  readonly minimumApprovals?: number | undefined;
  /** Set when an earlier approval was voided because the infra repo moved. */
  readonly previousCommit?: string | undefined;
  /** What the approver must compare with something outside the bot first, in words ("a host key to compare"). */
  readonly compare?: string | undefined;
}

export type ApprovalState =
  | { readonly status: 'none' }
  | {
      readonly status: 'pending';
      readonly id: string;
      readonly fingerprint: string;
      readonly expiresAt: number;
    }
  | {
      readonly status: 'approved';
      readonly id: string;
      readonly fingerprint: string;
      readonly by: readonly string[];
    }
  | { readonly status: 'rejected'; readonly id: string; readonly by: string }
  | { readonly status: 'expired'; readonly id: string }
  | { readonly status: 'void'; readonly id: string };

export interface ApprovalDesk {
  /** The latest approval for this step of this job. */
  state(stepId: string): Promise<ApprovalState>;
  /** Opens a pending approval (and shows it to the approvers); resolves with its id and expiry. */
  request(request: ApprovalRequest): Promise<{ id: string; expiresAt: number }>;
  expire(id: string): Promise<void>;
  /** Withdraws an approval that no longer covers what would run. */
  void(id: string, reason: string): Promise<void>;
}
