import { jobNumberWord } from './job-number-word.js';
import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `cancel <job>`: stops a job, if its requester or an approver of its cluster asks. */
export const cancel = verbHandler(
  operatorsOnly(async (words, { actor, service }) => {
    const number = jobNumberWord(words);
    if (number === undefined) return { code: 'USAGE', verb: 'cancel' };
    return service.cancel(actor, number);
  }),
  { help: ['`cancel <job>`: stop a job (its requester or an approver)'] },
);
