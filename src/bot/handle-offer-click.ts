import type { Actor, ClusterService, Refusal, Submitted } from '../service/index.js';
import { describeReply } from '../wording/describe-reply.js';
import { MRKDWN } from './mrkdwn.js';
import type { SlackPoster } from './slack-poster.js';

/** A click on a button a job's thread offers (Roll back Cilium, Re-run). */
export interface OfferClickRequest {
  readonly userId: string;
  /** The button's value: the job's id, or whatever a forged request put there. */
  readonly value: string;
  readonly channel: string;
  /** The thread the button was posted in (its root), where the click is told. */
  readonly threadTs: string | undefined;
}

export interface OfferClickDeps {
  readonly service: ClusterService;
  readonly poster: SlackPoster;
}

/**
 * A click on a button that queues a follow-up job: the service checks the job and the clicker's
 * rights and queues it (`ask`); the thread says who asked and which job runs it (`told`); the
 * clicker gets the answer (or the refusal) as an ephemeral message.
 */
export async function handleOfferClick(
  click: OfferClickRequest,
  deps: OfferClickDeps,
  ask: (actor: Actor) => Promise<Submitted | Refusal>,
  told: (queued: Submitted) => string,
): Promise<string> {
  const result = await ask({ userId: click.userId, channelId: click.channel });
  if (!('code' in result) && click.threadTs)
    await deps.poster.post({ channel: click.channel, threadTs: click.threadTs, text: told(result) });
  return describeReply(result, MRKDWN);
}
