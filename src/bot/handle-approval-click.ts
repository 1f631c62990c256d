import type { ClusterService } from '../service/index.js';
import { describeRefusal } from './describe-refusal.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { renderDecision } from './render-decision.js';
import type { SlackPoster } from './slack-poster.js';

export type ApprovalClickRequest = {
  readonly userId: string;
  readonly decision: 'approve' | 'reject';
  readonly value: string;
  /** Where the clicker acts (the button's channel; for the App Home, the Home's channel). */
  readonly channel: string;
} & (
  | {
      /** The message the button was on. */
      readonly messageTs: string;
    }
  | {
      /** The button was on the clicker's App Home. */
      readonly onHome: true;
    }
);

export interface ApprovalClickDeps {
  readonly service: ClusterService;
  readonly poster: SlackPoster;
}

/**
 * One Approve/Reject click, from the thread or the App Home, decided by the service. A counted
 * approval goes into the job's thread, a decision replaces the buttons of the approval's message
 * (wherever the click was). Returns the text of an answer to the clicker, or undefined when the
 * thread says it all.
 */
export async function handleApprovalClick(
  click: ApprovalClickRequest,
  deps: ApprovalClickDeps,
): Promise<string | undefined> {
  const result = await deps.service.decide(
    { userId: click.userId, channelId: click.channel },
    {
      decision: click.decision,
      value: click.value,
      ...('onHome' in click ? { onHome: true as const } : { messageTs: click.messageTs }),
    },
    async (decision) => {
      if (decision.kind === 'counted') {
        await deps.poster.post({
          ...decision.thread,
          text: `👍 <@${decision.userId}> approved ${escapeMrkdwn(decision.step)} (${decision.count}/${decision.required}); ${decision.missing} more needed.`,
        });
      } else if (decision.stored?.messageTs) {
        await deps.poster.update({
          channel: decision.thread.channel,
          ts: decision.stored.messageTs,
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
