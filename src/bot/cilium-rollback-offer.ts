import type { JobThread } from '../jobs/ports/job-thread.js';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import { type OfferMessage, offerMessage } from './offer-message.js';

export const ROLLBACK_ACTION = 'cluster_cilium_rollback';

// The steps of a rollout after which agents may run the new revision: cilium.yml, its watch, the verify.
const CHANGED_AGENTS = /^\d+-(cilium|cilium-rollout|verify)$/;

/**
 * Under a Cilium rollout that halted (or whose verify failed), a **Roll back Cilium** button; its
 * value is the job, which the service checks again on the click. Undefined when nothing is offered:
 * also when the agents that reported all still run the revision they ran before (the same
 * ControllerRevision: a rollout that changed nothing), where "the last good revision" would be
 * older than what ran before the job. Before any agent reports (the new revision's first agent
 * stuck) the rollout may have changed them, so it is offered.
 */
export function ciliumRollbackOffer(thread: JobThread): OfferMessage | undefined {
  const { board, cluster } = thread;
  if (board.outcome !== 'failed' || board.title !== describeCommand({ verb: 'cilium', cluster }))
    return undefined;
  const failed = board.steps.find((step) => step.status === 'failed');
  if (!failed || !CHANGED_AGENTS.test(failed.id) || thread.agentsMoved === false) return undefined;
  const text =
    `↩️ ${failed.title} failed, so agents may run the new revision. Roll back to the last good revision of the ` +
    `Cilium release (\`/cluster cilium ${cluster} --rollback\`: ⚠ approved like the rollout, watched agent by agent, then verified)?`;
  return offerMessage(text, {
    label: 'Roll back Cilium',
    actionId: ROLLBACK_ACTION,
    jobId: thread.jobId,
    danger: true,
  });
}
