import { handleOfferClick, type OfferClickDeps, type OfferClickRequest } from './handle-offer-click.js';

/**
 * A click on **Roll back Cilium**: the service checks the job and the clicker's rights as for
 * `cilium`, and queues the rollback; the thread says who asked and which job runs it.
 */
export function handleRollbackClick(click: OfferClickRequest, deps: OfferClickDeps): Promise<string> {
  return handleOfferClick(
    click,
    deps,
    (actor) => deps.service.rollBackCilium(actor, click.value),
    (queued) =>
      `↩️ <@${click.userId}> asked to roll back Cilium: job #${queued.number} \`${queued.command}\`.`,
  );
}
