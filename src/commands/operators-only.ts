import type { HandleWords } from './verb-handler.js';

/**
 * Refuses anyone who may not use the bot here before the verb reads its words, so a refused person
 * learns nothing from its usage errors (cluster names, job numbers).
 */
export function operatorsOnly(handler: HandleWords): HandleWords {
  return async (words, context) => (await context.service.admit(context.actor)) ?? handler(words, context);
}
