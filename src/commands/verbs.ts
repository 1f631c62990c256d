import { audit } from './audit.js';
import { cancel } from './cancel.js';
import { cilium } from './cilium.js';
import { drift } from './drift.js';
import { health } from './health.js';
import { help } from './help.js';
import { jobs } from './jobs.js';
import { packages } from './packages.js';
import { plan } from './plan.js';
import { reprovision } from './reprovision.js';
import { status } from './status.js';
import { up } from './up.js';
import type { VerbHandler } from './verb-handler.js';
import { verify } from './verify.js';

/**
 * Every `/cluster` verb and what runs it: a new verb is one line here. The order is the one a typo's
 * suggestion prefers on a tie: the lifecycle verbs first.
 */
export const VERBS = {
  up,
  reprovision,
  cilium,
  verify,
  packages,
  health,
  drift,
  help,
  plan,
  status,
  jobs,
  cancel,
  audit,
} as const satisfies Readonly<Record<string, VerbHandler>>;

export type Verb = keyof typeof VERBS;

export function isVerb(word: string): word is Verb {
  return Object.hasOwn(VERBS, word);
}
