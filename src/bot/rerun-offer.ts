import type { BoardStep, JobThread } from '../jobs/ports/job-thread.js';
import { type OfferMessage, offerMessage } from './offer-message.js';

export const RERUN_ACTION = 'cluster_rerun';

/** A step the re-run will skip: one it may carry over (Step.carryOver), finished here or carried in turn. */
const kept = (step: BoardStep): boolean =>
  step.carryOver === true && (step.status === 'succeeded' || step.detail?.startsWith('done in #') === true);

/**
 * Under a failed or cancelled job's final report, a **Re-run** button (its value, the job, which
 * the service checks again on the click). When its plan has steps a re-run may skip, it reads
 * **Re-run from <step>**: the first that runs again and either changes the cluster under an
 * approval or did not finish (a check that passed before it runs again too, unnamed). A plan with
 * none (cilium, upgrade, restore, reprovision, …) always runs whole, and the button says so. A
 * `plan` job changes nothing, so it offers none.
 */
export function rerunOffer(thread: JobThread): OfferMessage | undefined {
  const { board } = thread;
  if (board.outcome !== 'failed' && board.outcome !== 'cancelled') return undefined;
  if (board.title.startsWith('plan ')) return undefined;
  const asked = `A new job (\`/cluster rerun ${board.jobNumber}\`, an operator of ${thread.cluster})`;
  const button = (label: string, text: string) =>
    offerMessage(text, { label: label.slice(0, 75), actionId: RERUN_ACTION, jobId: thread.jobId });
  if (!board.steps.some((step) => step.carryOver === true)) {
    const verb = board.title.split(' ')[0];
    return button(
      `Re-run ${board.title}`,
      `🔁 Re-run \`/cluster ${board.title}\`? ${asked} runs every step again: nothing of #${board.jobNumber} is skipped: ` +
        `${verb} always runs whole. Every approval is asked anew.`,
    );
  }
  const from = board.steps.find((step) => !kept(step) && (step.disruptive || step.status !== 'succeeded'));
  if (!from) return undefined;
  const skipped = board.steps.filter(kept).map((step) => step.title);
  const skips =
    skipped.length === 0
      ? `skips nothing (this job finished no step a re-run may skip)`
      : `skips ${skipped.join(', ')} (finished by this job) while the infra repo and ${skipped.length === 1 ? 'its command line are' : 'their command lines are'} unchanged (else it runs every step and says why)`;
  return button(
    `Re-run from ${from.title}`,
    `🔁 Re-run from ${from.title}? ${asked} runs the preconditions, every check and every other step again, ${skips}, ` +
      'and asks every approval anew.',
  );
}
