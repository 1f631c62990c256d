import { operatorsOnly } from './operators-only.js';
import type { VerbHandler } from './verb-handler.js';

/** `jobs`: the recent jobs with outcome and duration (extra words are ignored). */
export const jobs: VerbHandler = operatorsOnly(async (_words, { actor, service }) => service.jobs(actor));
