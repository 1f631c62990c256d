import { MASK } from './mask.js';
import type { MatchBudget } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';

const AUTHORITY_END = new Set([' ', '\t', '/', "'", '"', '\\']);
const isSchemeChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 46 || c === 45;

/**
 * `scheme://user:password@host` with the password masked: it runs from the first `:` of the
 * authority to its last `@` (a password may hold an `@`).
 */
export function maskUrlCredentials(line: string, budget: MatchBudget): string {
  if (!line.includes('://')) return line;
  let out = '';
  let copied = 0;
  const scheme = new RegExp(REDACTION_PATTERNS.urlScheme);
  for (let found = scheme.exec(line); found; found = scheme.exec(line)) {
    budget.take(found.index);
    const from = found.index + 3;
    let to = from;
    while (to < line.length && !AUTHORITY_END.has(line[to]!)) to++;
    scheme.lastIndex = to;
    if (!isSchemeChar(line.charCodeAt(found.index - 1))) continue;
    const authority = line.slice(from, to);
    const colon = authority.indexOf(':');
    const at = authority.lastIndexOf('@');
    if (colon < 0 || at <= colon + 1 || authority.slice(0, colon).includes('@')) continue;
    out += `${line.slice(copied, from + colon + 1)}${MASK}`;
    copied = from + at;
  }
  return copied === 0 ? line : out + line.slice(copied);
}
