import { LIFECYCLE_VERB_SPECS, type PlannedVerb } from '../lifecycle/verbs/lifecycle-verbs.js';
import { audit } from './audit.js';
import { cancel } from './cancel.js';
import { help } from './help.js';
import { jobs } from './jobs.js';
import { plan } from './plan.js';
import { rerun } from './rerun.js';
import { status } from './status.js';
import { submitLifecycle } from './submit-lifecycle.js';
import type { VerbHandler } from './verb-handler.js';

/** Every verb that runs a plan (its spec in src/lifecycle/verbs/) is submitted as a job. */
const LIFECYCLE_HANDLERS = Object.fromEntries(
  Object.entries(LIFECYCLE_VERB_SPECS).map(([verb, spec]) => [verb, submitLifecycle(spec)]),
) as Readonly<Record<PlannedVerb, VerbHandler>>;

/**
 * Every `/cluster` verb and what runs it: a verb that runs a plan comes with its spec; any other is
 * one line here. The order is the one a typo's suggestion prefers on a tie: the lifecycle verbs first.
 */
export const VERBS = {
  ...LIFECYCLE_HANDLERS,
  help,
  plan,
  status,
  jobs,
  cancel,
  rerun,
  audit,
} as const satisfies Readonly<Record<string, VerbHandler>>;

export type Verb = keyof typeof VERBS;

export function isVerb(word: string): word is Verb {
  return Object.hasOwn(VERBS, word);
}
