import type { ResponseUrlTarget, SlackState } from './create-slack-state.js';
import type { ResponseUrlOutcome } from './fake-slack-types.js';
import { validateBlocks } from './validate-blocks.js';

const maxUses = 5;
const lifetimeMs = 30 * 60_000;

export interface ResponseUrlAnswer {
  status: number;
  body: Record<string, unknown>;
  outcome: ResponseUrlOutcome;
}

function rejected(status: number, error: string): ResponseUrlAnswer {
  return { status, body: { ok: false, error }, outcome: 'rejected' };
}

/**
 * What Slack does with a POST to a response_url: 5 uses within 30 minutes; replace_original /
 * delete_original act on the message holding the clicked button; otherwise a new message,
 * ephemeral to the user unless response_type is in_channel.
 */
export function applyResponseUrlPost(
  state: SlackState,
  target: ResponseUrlTarget,
  body: Record<string, unknown>,
  now: number,
): ResponseUrlAnswer {
  if (now - target.createdAt > lifetimeMs) return rejected(404, 'expired_url');
  if (target.uses >= maxUses) return rejected(404, 'used_url');
  target.uses += 1;

  const blocks = state.normalize(body.blocks);
  const problem = blocks && validateBlocks(blocks);
  if (problem) return rejected(400, 'invalid_blocks');
  const text = typeof body.text === 'string' ? body.text : '';
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : undefined;
  const { channel, messageTs } = target;

  if (messageTs !== undefined && body.delete_original === true) {
    return state.remove(channel, messageTs)
      ? { status: 200, body: { ok: true }, outcome: 'deleted' }
      : rejected(404, 'message_not_found');
  }
  if (messageTs !== undefined && body.replace_original === true) {
    const change = { text, ...(blocks && { blocks }) };
    return state.update(channel, messageTs, change, 'response_url')
      ? { status: 200, body: { ok: true }, outcome: 'replaced' }
      : rejected(404, 'message_not_found');
  }
  if (body.response_type === 'in_channel') {
    state.post({ channel, text, blocks, threadTs, via: 'response_url' });
    return { status: 200, body: { ok: true }, outcome: 'in_channel' };
  }
  state.ephemerals.push({
    channel,
    user: target.userId,
    text,
    ...(blocks && { blocks }),
    ...(threadTs !== undefined && { thread_ts: threadTs }),
    message_ts: state.nextTs(),
    via: 'response_url',
    at: now,
  });
  return { status: 200, body: { ok: true }, outcome: 'ephemeral' };
}
