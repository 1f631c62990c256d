import type { JobThread } from '../jobs/ports/job-thread.js';
import { type OfferMessage, offerMessage } from './offer-message.js';

export const RERUN_ACTION = 'cluster_rerun';

/**
 * Under a failed or cancelled job's final report, a **Re-run from <step>** button (its value, the
 * job, which the service checks again on the click). The step is where the job stopped: the one
 * that failed, else the first that did not run. A `plan` job changes nothing, so it offers none.
 */
export function rerunOffer(thread: JobThread): OfferMessage | undefined {
  const { board } = thread;
  if (board.outcome !== 'failed' && board.outcome !== 'cancelled') return undefined;
  if (board.title.startsWith('plan ')) return undefined;
  const from =
    board.steps.find((step) => step.status === 'failed') ??
    board.steps.find((step) => step.status !== 'succeeded' && !step.detail?.startsWith('done in #'));
  if (!from) return undefined;
  const text =
    `🔁 Re-run from ${from.title}? A new job (\`/cluster rerun ${board.jobNumber}\`, an operator of ${thread.cluster}) runs the ` +
    'preconditions and every check again, skips the playbooks this job finished while the infra repo and their ' +
    'command lines are unchanged (else it runs every step and says why), and asks every approval anew.';
  return offerMessage(text, {
    label: `Re-run from ${from.title}`.slice(0, 75),
    actionId: RERUN_ACTION,
    jobId: thread.jobId,
  });
}
