import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `jobs`: the recent jobs with outcome and duration (extra words are ignored). */
export const jobs = verbHandler(
  operatorsOnly(async (_words, { actor, service }) => service.jobs(actor)),
  { help: ['`jobs`: recent jobs with outcome and duration'] },
);
