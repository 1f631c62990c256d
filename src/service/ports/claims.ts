/** What may happen once only: a Slack delivery, a job's follow-up (its Cilium rollback, its re-run). */
export interface Claims {
  /** True for the first delivery of `key` (a day's memory), false for a repeat. */
  firstDelivery(key: string): Promise<boolean>;
  /**
   * Claims the follow-up of `kind` of the job: undefined when this caller now holds it, else what the
   * holder left: the follow-up's job id, or undefined while its submit is still under way.
   */
  claimFollowUp(
    kind: FollowUpKind,
    jobId: string,
  ): Promise<{ readonly jobId: string | undefined } | undefined>;
  /** The follow-up queued as `followUpJobId` (kept as long as the thread is worth clicking in), or none: the claim goes. */
  settleFollowUp(kind: FollowUpKind, jobId: string, followUpJobId: string | undefined): Promise<void>;
}

export type FollowUpKind = 'rerun' | 'rollback';
