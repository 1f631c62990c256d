import { VERBS, type Verb } from '../commands/verbs.js';
import type { Marks } from './marks.js';

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

/** What `/cluster help` says: every verb's help line, in the reading order. */
export function helpText(marks: Marks): string {
  return [
    `${marks.bold('/cluster')} runs the life of the k3s clusters. Commands:`,
    ...READING_ORDER.flatMap((verb) => VERBS[verb].help.map((line) => `• ${helpLine(line, marks)}`)),
    `Mutating commands take ${marks.code('--queue')} to wait behind a busy cluster. Steps marked ⚠ stop for approval first.`,
  ].join('\n');
}

/** A verb's help line: its specs write what is typed between backticks. */
function helpLine(line: string, marks: Marks): string {
  return line
    .split('`')
    .map((part, index) => (index % 2 === 1 ? marks.code(part) : part))
    .join('');
}

/** A verb left out of the order does not compile: the error names it as `missing`. */
function inReadingOrder<const Order extends readonly Verb[]>(
  order: Order &
    ([Exclude<Verb, Order[number]>] extends [never]
      ? unknown
      : { readonly missing: Exclude<Verb, Order[number]> }),
): Order {
  return order;
}
