import type { ClusterService } from '../service/index.js';
import {
  type DecisionWords,
  describeCountedApproval,
  describeDecision,
} from '../wording/describe-decision.js';
import { describeRefusal } from '../wording/describe-refusal.js';
import type { Marks } from '../wording/marks.js';
import type { MessagePoster } from './message-poster.js';

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
  readonly poster: Pick<MessagePoster, 'post' | 'update'>;
  /** How the edge marks the thread's messages and the answer. */
  readonly marks: Marks;
  /** The edge's own layout of the decided request (Slack's Block Kit); without it, the text alone. */
  readonly layOutDecision?: ((words: DecisionWords) => readonly unknown[]) | undefined;
}

/**
 * One Approve/Reject click, from the thread or the App Home (or `approve N` at the console), decided
 * by the service. A counted approval goes into the job's thread, a decision replaces the buttons of
 * the approval's message (wherever the click was). Returns the text of an answer to the clicker, or
 * undefined when the thread says it all.
 */
export async function handleApprovalClick(
  click: ApprovalClickRequest,
  deps: ApprovalClickDeps,
): Promise<string | undefined> {
  const { marks } = deps;
  const result = await deps.service.decide(
    { userId: click.userId, channelId: click.channel },
    {
      decision: click.decision,
      value: click.value,
      ...('onHome' in click ? { onHome: true as const } : { messageTs: click.messageTs }),
    },
    async (decision) => {
      if (decision.kind === 'counted') {
        await deps.poster.post({ ...decision.thread, text: describeCountedApproval(decision, marks) });
      } else if (decision.stored?.messageTs) {
        const words = describeDecision(decision.stored, decision.at, marks);
        await deps.poster.update({
          channel: decision.thread.channel,
          ts: decision.stored.messageTs,
          text: words.text,
          blocks: deps.layOutDecision?.(words),
        });
      }
    },
  );
  if ('code' in result) return describeRefusal(result, marks);
  if (result.kind === 'already-counted')
    return `Your approval is already counted; ${result.missing} more needed.`;
  return undefined;
}
