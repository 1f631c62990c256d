import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `cancel <job>`: stops a job, if its requester or an approver of its cluster asks. */
export const cancel = verbHandler(
  operatorsOnly(async (words, { actor, service }) => {
    const match = words.length === 1 ? /^#?(\d{1,9})$/.exec(words[0]!) : null;
    if (!match) return { code: 'USAGE', verb: 'cancel' };
    return service.cancel(actor, match[1]!);
  }),
  { help: ['`cancel <job>`: stop a job (its requester or an approver)'] },
);
