import type { StoredApproval } from '../service/index.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { truncate } from './render-board.js';

/** The approval message after a decision: who decided what and when, and no buttons. */
export function renderDecision(stored: StoredApproval, at: number): { text: string; blocks: unknown[] } {
  const when = new Date(stored.decidedAt ?? at).toISOString().replace('T', ' ').slice(0, 19);
  const title = escapeMrkdwn(stored.request?.stepTitle ?? 'step');
  const state = stored.state;
  const text =
    state.status === 'approved'
      ? `✅ ${title} approved by ${state.by.map((u) => `<@${u}>`).join(', ')} at ${when} UTC`
      : state.status === 'rejected'
        ? `🚫 ${title} rejected by <@${state.by}> at ${when} UTC`
        : `${title}: ${state.status}`;
  const command = stored.request
    ? `\n\`${escapeMrkdwn(truncate(stored.request.binding.commandLine, 500))}\``
    : '';
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${text}${command}` } }] };
}
