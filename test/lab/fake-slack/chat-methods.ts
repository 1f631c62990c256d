import type { Block } from './fake-slack-types.js';
import {
  fail,
  flagArg,
  type MethodContext,
  type MethodHandler,
  type MethodResult,
  stringArg,
} from './method-context.js';
import { validateBlocks } from './validate-blocks.js';

type Content = { text?: string; blocks?: Block[] } | { error: MethodResult };

/** text and blocks as chat.* accept them; `blocks` arrives JSON-decoded by the request parser. */
function readContent(ctx: MethodContext): Content {
  const content: { text?: string; blocks?: Block[] } = {};
  const text = ctx.args.text;
  if (typeof text === 'string') content.text = text.slice(0, 40_000);
  if (ctx.args.blocks !== undefined) {
    if (!Array.isArray(ctx.args.blocks)) return { error: fail('invalid_blocks_format') };
    const blocks = ctx.state.normalize(ctx.args.blocks)!;
    const problem = validateBlocks(blocks);
    if (problem) return { error: fail('invalid_blocks', { response_metadata: { messages: [problem] } }) };
    content.blocks = blocks;
  }
  return content;
}

function knownChannel(ctx: MethodContext): string | MethodResult {
  const channel = stringArg(ctx.args, 'channel');
  if (channel === undefined || !ctx.directory.channelKnown(channel)) return fail('channel_not_found');
  return channel;
}

const postMessage: MethodHandler = (ctx) => {
  // Posting to a user's id posts to the bot's DM with them (Slack opens it); an unknown user is channel_not_found.
  const channel = ctx.directory.directChannel(stringArg(ctx.args, 'channel') ?? '') ?? knownChannel(ctx);
  if (typeof channel !== 'string') return channel;
  const content = readContent(ctx);
  if ('error' in content) return content.error;
  if (content.text === undefined && content.blocks === undefined && ctx.args.attachments === undefined) {
    return fail('no_text');
  }
  const threadTs = stringArg(ctx.args, 'thread_ts');
  const { channel: _stored, ...message } = ctx.state.post({
    channel,
    text: content.text ?? '',
    blocks: content.blocks,
    threadTs,
    // Slack ignores reply_broadcast on a message that is not a thread reply.
    broadcast: threadTs !== undefined && flagArg(ctx.args, 'reply_broadcast'),
    via: 'chat.postMessage',
  });
  return { ok: true, channel, ts: message.ts, message };
};

const update: MethodHandler = (ctx) => {
  const channel = knownChannel(ctx);
  if (typeof channel !== 'string') return channel;
  const ts = stringArg(ctx.args, 'ts');
  if (ts === undefined) return fail('message_not_found');
  const content = readContent(ctx);
  if ('error' in content) return content.error;
  const updated = ctx.state.update(channel, ts, content, 'chat.update');
  if (!updated) return fail('message_not_found');
  const { channel: _stored, ...message } = updated;
  return { ok: true, channel, ts, text: message.text, message };
};

const postEphemeral: MethodHandler = (ctx) => {
  const channel = knownChannel(ctx);
  if (typeof channel !== 'string') return channel;
  const user = stringArg(ctx.args, 'user');
  if (user === undefined || !ctx.directory.user(user)) return fail('user_not_found');
  const content = readContent(ctx);
  if ('error' in content) return content.error;
  if (content.text === undefined && content.blocks === undefined) return fail('no_text');
  const messageTs = ctx.state.nextTs();
  const threadTs = stringArg(ctx.args, 'thread_ts');
  ctx.state.ephemerals.push({
    channel,
    user,
    text: content.text ?? '',
    ...(content.blocks && { blocks: content.blocks }),
    ...(threadTs !== undefined && { thread_ts: threadTs }),
    message_ts: messageTs,
    via: 'chat.postEphemeral',
    at: ctx.now(),
  });
  return { ok: true, message_ts: messageTs };
};

const remove: MethodHandler = (ctx) => {
  const channel = knownChannel(ctx);
  if (typeof channel !== 'string') return channel;
  const ts = stringArg(ctx.args, 'ts');
  if (ts === undefined || !ctx.state.remove(channel, ts)) return fail('message_not_found');
  return { ok: true, channel, ts };
};

const replies: MethodHandler = (ctx) => {
  const channel = knownChannel(ctx);
  if (typeof channel !== 'string') return channel;
  const ts = stringArg(ctx.args, 'ts');
  const asked = ts === undefined ? undefined : ctx.state.get(channel, ts);
  if (!asked || asked.deleted) return fail('thread_not_found');
  const rootTs = asked.thread_ts ?? asked.ts;
  const root = ctx.state.everything(channel).filter((m) => m.ts === rootTs);
  const messages = [...root, ...ctx.state.replies(channel, rootTs)].map(({ channel: _channel, ...m }) => m);
  return { ok: true, messages, has_more: false, response_metadata: { next_cursor: '' } };
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.delete': remove,
  'conversations.replies': replies,
};
