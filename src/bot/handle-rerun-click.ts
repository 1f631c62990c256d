import { handleOfferClick, type OfferClickDeps, type OfferClickRequest } from './handle-offer-click.js';

/**
 * A click on **Re-run** (from a step, or the command whole): the service checks the job (failed
 * or cancelled, not re-run yet) and the clicker's rights for its cluster, and queues the re-run on the clicker's behalf; the
 * failed job's thread says who asked and which job runs it (that job's board links back here).
 */
export function handleRerunClick(click: OfferClickRequest, deps: OfferClickDeps): Promise<string> {
  return handleOfferClick(
    click,
    deps,
    (actor) => deps.service.rerun(actor, { id: click.value }),
    (queued) =>
      `🔁 <@${click.userId}> asked to re-run this job: job #${queued.number} \`${queued.command}\`.`,
  );
}
