import type { LifecycleCommand } from '../command/lifecycle-command.js';
import { cilium } from './cilium.js';
import { drift } from './drift.js';
import { health } from './health.js';
import { packages } from './packages.js';
import { reprovision } from './reprovision.js';
import { restore } from './restore.js';
import { snapshots } from './snapshots.js';
import { up } from './up.js';
import { upgrade } from './upgrade.js';
import type { VerbCommand, VerbSpec } from './verb-spec.js';
import { verify } from './verify.js';

/**
 * Every verb that runs a plan, by name: a new one is one line here. The order is the one a typo's
 * suggestion prefers on a tie.
 */
export const LIFECYCLE_VERB_SPECS = {
  up,
  reprovision,
  cilium,
  verify,
  packages,
  health,
  drift,
  snapshots,
  restore,
  upgrade,
} as const;

type Specs = typeof LIFECYCLE_VERB_SPECS;
type CommandOfSpec<Spec> = Spec extends VerbSpec<infer Command extends VerbCommand> ? Command : never;

/** A command that runs a plan of its own (any but `plan`), as its verb's spec shapes it. */
export type PlannedCommand = { [Verb in keyof Specs]: CommandOfSpec<Specs[Verb]> }[keyof Specs];
export type PlannedVerb = keyof Specs;

export type CommandOf<Verb extends PlannedVerb> = Extract<PlannedCommand, { readonly verb: Verb }>;
/** Each verb's spec, for its own command: a spec filed under another verb's name does not compile. */
type SpecsByVerb = { readonly [Verb in PlannedVerb]: VerbSpec<CommandOf<Verb>> };
const SPECS: SpecsByVerb = LIFECYCLE_VERB_SPECS;

export const LIFECYCLE_VERBS = Object.keys(LIFECYCLE_VERB_SPECS) as readonly PlannedVerb[];

export function isPlannedVerb(word: string): word is PlannedVerb {
  return Object.hasOwn(LIFECYCLE_VERB_SPECS, word);
}

export function verbSpec<Verb extends PlannedVerb>(verb: Verb): SpecsByVerb[Verb] {
  return SPECS[verb];
}

/** Changes a cluster: one at a time per cluster. `plan` only checks, as do the verbs whose spec says so. */
export function isMutating(command: LifecycleCommand): boolean {
  return command.verb !== 'plan' && SPECS[command.verb].mutating;
}
