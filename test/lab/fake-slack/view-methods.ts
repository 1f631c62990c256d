import { fail, type MethodHandler, stringArg } from './method-context.js';
import { validateBlocks } from './validate-blocks.js';

/** Slack refuses a view over 250 kB (`view_too_large`). */
const MAX_VIEW_BYTES = 250_000;
/** A Home tab holds up to 100 blocks (a message 50). */
const MAX_HOME_BLOCKS = 100;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** views.publish: a user's Home tab, validated like Slack does, kept with its history. */
const publish: MethodHandler = (ctx) => {
  const user = stringArg(ctx.args, 'user_id');
  if (user === undefined || !ctx.directory.user(user)) return fail('user_not_found');
  const view = ctx.args.view;
  const invalid = (message: string) =>
    fail('invalid_arguments', { response_metadata: { messages: [message] } });
  if (!isRecord(view)) return invalid('[ERROR] missing required field: view');
  if (view.type !== 'home') return invalid('[ERROR] view type must be home for views.publish');
  if (Buffer.byteLength(JSON.stringify(view)) > MAX_VIEW_BYTES) return fail('view_too_large');
  const blocks = ctx.state.normalize(view.blocks);
  if (!blocks) return invalid('[ERROR] missing required field: blocks');
  const problem = validateBlocks(blocks, MAX_HOME_BLOCKS);
  if (problem) return invalid(`[ERROR] ${problem}`);
  const record = { id: ctx.state.newId('V'), user, blocks, at: ctx.now() };
  ctx.state.homeViews.push(record);
  return { ok: true, view: { id: record.id, type: 'home', team_id: ctx.state.identity.teamId, blocks } };
};

export const viewMethods: Record<string, MethodHandler> = { 'views.publish': publish };
