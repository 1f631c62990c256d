import type { ClickTarget } from '../../jobs/apply-approval-click.js';
import type { StoredApproval } from '../../jobs/ports/approval-announcer.js';
import type { StoredApprovalEntry } from '../../jobs/read-stored-approvals.js';
import type { ApprovalClick, ApprovalRules, ClickVerdict } from '../../lifecycle/approval/decide-approval.js';
import type { Clock } from '../../lifecycle/ports/clock.js';

/** The jobs' approvals, one per step that asked: read, and decided one click at a time. */
export interface ApprovalBook {
  read(jobId: string): Promise<StoredApprovalEntry[]>;
  /**
   * Applies one click to the approval it names, atomically: of two clicks at once both are counted
   * and a decision lands once. The verdict, and the approval as it now stands.
   */
  applyClick(
    target: ClickTarget,
    click: ApprovalClick,
    rules: ApprovalRules,
    clock: Clock,
  ): Promise<{ verdict: ClickVerdict; stored?: StoredApproval }>;
}
