import { operatorsOnly } from './operators-only.js';
import type { VerbHandler } from './verb-handler.js';

/** `cancel <job>`: stops a job, if its requester or an approver of its cluster asks. */
export const cancel: VerbHandler = operatorsOnly(async (words, { actor, service }) => {
  const match = words.length === 1 ? /^#?(\d{1,9})$/.exec(words[0]!) : null;
  if (!match) return { code: 'USAGE', verb: 'cancel' };
  return service.cancel(actor, match[1]!);
});
