import type { ClusterService } from '../service/index.js';
import { describeRefusal } from './describe-refusal.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { renderDecision } from './render-decision.js';
import type { SlackPoster } from './slack-poster.js';

export interface ApprovalClickRequest {
  readonly userId: string;
  readonly decision: 'approve' | 'reject';
  readonly value: string;
  readonly channel: string;
  readonly messageTs: string;
}

export interface ApprovalClickDeps {
  readonly service: ClusterService;
  readonly poster: SlackPoster;
}

/**
 * One Approve/Reject click, decided by the service. A counted approval goes into the job's thread,
 * a decision replaces the buttons. Returns the text for an ephemeral answer to the clicker, or
 * undefined when the thread says it all.
 */
export async function handleApprovalClick(
  click: ApprovalClickRequest,
  deps: ApprovalClickDeps,
): Promise<string | undefined> {
  const result = await deps.service.decide(
    { userId: click.userId, channelId: click.channel },
    { decision: click.decision, value: click.value, messageTs: click.messageTs },
    async (decision) => {
      if (decision.kind === 'counted') {
        await deps.poster.post({
          ...decision.thread,
          text: `👍 <@${decision.userId}> approved ${escapeMrkdwn(decision.step)} (${decision.count}/${decision.required}); ${decision.missing} more needed.`,
        });
      } else if (decision.stored) {
        await deps.poster.update({
          channel: click.channel,
          ts: click.messageTs,
          ...renderDecision(decision.stored, decision.at),
        });
      }
    },
  );
  if ('code' in result) return describeRefusal(result);
  if (result.kind === 'already-counted')
    return `Your approval is already counted; ${result.missing} more needed.`;
  return undefined;
}
