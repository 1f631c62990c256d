import type { ClusterService } from '../service/index.js';
import { describeReply } from './handle-cluster-command.js';
import type { SlackPoster } from './slack-poster.js';

export interface RollbackClickRequest {
  readonly userId: string;
  /** The button's value: the failed rollout's job id, or whatever a forged request put there. */
  readonly value: string;
  readonly channel: string;
  /** The thread the button was posted in (its root), where the click is told. */
  readonly threadTs: string | undefined;
}

/**
 * A click on **Roll back Cilium**: the service checks the job and the clicker's rights as for
 * `cilium`, and queues the rollback. The thread says who asked and which job runs it; the clicker
 * gets the answer (or the refusal) as an ephemeral message.
 */
export async function handleRollbackClick(
  click: RollbackClickRequest,
  deps: { readonly service: ClusterService; readonly poster: SlackPoster },
): Promise<string> {
  const result = await deps.service.rollBackCilium(
    { userId: click.userId, channelId: click.channel },
    click.value,
  );
  if (!('code' in result) && click.threadTs) {
    await deps.poster.post({
      channel: click.channel,
      threadTs: click.threadTs,
      text: `↩️ <@${click.userId}> asked to roll back Cilium: job #${result.number} \`${result.command}\`.`,
    });
  }
  return describeReply(result);
}
