import { applyApprovalClick } from '../../src/jobs/apply-approval-click.js';
import type { StoredApproval } from '../../src/jobs/ports/approval-announcer.js';
import { readAnnouncedApproval } from '../../src/jobs/read-announced-approval.js';
import type { ApprovalBook } from '../../src/service/ports/approval-book.js';

/**
 * The jobs' approvals in memory, one per step that asked, decided by the same click rule as Redis's
 * (apply-approval-click.ts), after the same wait for a request's message (read-announced-approval.ts).
 * Once the wait is over a click is read, decided and written without yielding, so no compare-and-set
 * is needed.
 */
export function createMemoryApprovalBook() {
  const byJob = new Map<string, Map<string, StoredApproval>>();
  const stepsOf = (jobId: string) => byJob.get(jobId) ?? new Map<string, StoredApproval>();
  const book: ApprovalBook = {
    async read(jobId) {
      return [...stepsOf(jobId)].map(([stepId, stored]) => ({ stepId, raw: JSON.stringify(stored), stored }));
    },
    async applyClick(target, click, rules, clock) {
      const current = () => stepsOf(target.jobId).get(target.stepId);
      await readAnnouncedApproval(async () => ({ stored: current() }), clock);
      // Read again: another click may have been applied since the wait's last read.
      const { verdict, ruled, next } = applyApprovalClick(current(), target, click, rules);
      if (!ruled) return { verdict };
      if (!next) return { verdict, stored: ruled };
      put(target.jobId, target.stepId, next);
      return { verdict, stored: next };
    },
  };
  function put(jobId: string, stepId: string, stored: StoredApproval) {
    byJob.set(jobId, stepsOf(jobId).set(stepId, stored));
  }
  return { book, put };
}
