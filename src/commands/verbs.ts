import { audit } from './audit.js';
import { cancel } from './cancel.js';
import { cilium } from './cilium.js';
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

export type Verb =
  | 'up'
  | 'reprovision'
  | 'cilium'
  | 'verify'
  | 'packages'
  | 'health'
  | 'help'
  | 'plan'
  | 'status'
  | 'jobs'
  | 'cancel'
  | 'audit';

/**
 * Every `/cluster` verb and what runs it. The order is the one a typo's suggestion prefers on a tie:
 * the lifecycle verbs first.
 */
export const VERBS: Readonly<Record<Verb, VerbHandler>> = {
  up,
  reprovision,
  cilium,
  verify,
  packages,
  health,
  help,
  plan,
  status,
  jobs,
  cancel,
  audit,
};

export function isVerb(word: string): word is Verb {
  return Object.hasOwn(VERBS, word);
}
