import { isRightsRefusal } from '../service/index.js';
import type { HandleWords } from './verb-handler.js';

/** A command refused for want of rights is audited, with the line as typed (inside admission: within the rate limit). */
export function auditRightsRefusals(handler: HandleWords, line: string): HandleWords {
  return async (words, context) => {
    const reply = await handler(words, context);
    if ('code' in reply && isRightsRefusal(reply))
      await context.service.auditRefusal(context.actor, line, reply);
    return reply;
  };
}
