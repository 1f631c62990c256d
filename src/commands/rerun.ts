import { jobNumberWord } from './job-number-word.js';
import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `rerun <job>`: a failed or cancelled job's command again, skipping what it did while the repo is as it was. */
export const rerun = verbHandler(
  operatorsOnly(async (words, { actor, service, admission }) => {
    const number = jobNumberWord(words);
    if (number === undefined) return { code: 'USAGE', verb: 'rerun' };
    return service.rerun(actor, { number }, admission?.claim());
  }),
  {
    help: [
      '`rerun <job>`: run a failed or cancelled job again as a new job (an operator of its cluster): checks run again, ' +
        'every approval is asked anew, and the playbooks it did are skipped while the infra repo and their command lines are unchanged',
    ],
    submitsJob: true,
  },
);
