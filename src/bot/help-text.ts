import { VERBS, type Verb } from '../commands/verbs.js';

/** The order the help reads in (not the registry's, which settles a typo's ties): every verb once. */
const READING_ORDER = inReadingOrder([
  'up',
  'reprovision',
  'cilium',
  'drift',
  'verify',
  'packages',
  'health',
  'snapshots',
  'restore',
  'upgrade',
  'plan',
  'status',
  'jobs',
  'cancel',
  'rerun',
  'audit',
  'help',
]);

export const HELP_TEXT = [
  '*/cluster* runs the life of the k3s clusters. Commands:',
  ...READING_ORDER.flatMap((verb) => VERBS[verb].help.map((line) => `• ${line}`)),
  'Mutating commands take `--queue` to wait behind a busy cluster. Steps marked ⚠ stop for approval first.',
].join('\n');

/** A verb left out of the order does not compile: the error names it as `missing`. */
function inReadingOrder<const Order extends readonly Verb[]>(
  order: Order &
    ([Exclude<Verb, Order[number]>] extends [never]
      ? unknown
      : { readonly missing: Exclude<Verb, Order[number]> }),
): Order {
  return order;
}
