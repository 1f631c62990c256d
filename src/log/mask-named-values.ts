import { MASK } from './mask.js';
import type { MatchBudget } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';
import { secretKeysIn } from './secret-keys-in.js';
import { shellWordEnd } from './shell-word-end.js';

interface Span {
  readonly from: number;
  readonly to: number;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const skipBlanks = (line: string, at: number) => {
  let i = at;
  while (isBlank(line[i])) i++;
  return i;
};
// Bare words whose value follows after a blank: redis.conf's `requirepass x`, `masterauth x`.
const BARE_WORDS = new Set(['requirepass', 'masterauth']);
const NETRC_WORDS = new Set(['login', 'machine', 'account', 'default']);
const QUERY_END = new Set(['&', '#', '"', "'", '\\', '<', '>', ' ', '\t']);

/**
 * The line with the value of every key that names a secret masked, keeping the key: `password: x`
 * and `"token": "x"` to the end of the line (a YAML value may hold spaces), `api_key=x` and
 * `--token x` for one shell word, `?sig=x&` to the query's next `&`, `requirepass x` and `.netrc`'s
 * `password x`, and a Kubernetes env var whose `name` is a secret's with its `value` on the same line.
 */
export function maskNamedValues(line: string, budget: MatchBudget): string {
  let out = '';
  let copied = 0;
  for (const key of secretKeysIn(line, budget)) {
    if (key.start < copied) continue;
    const span = secretValueSpan(line, key.start, key.end, key.key, key.name);
    if (!span) continue;
    out += `${line.slice(copied, span.from)}${MASK}`;
    copied = span.to;
    if (copied >= line.length) break;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

function secretValueSpan(
  line: string,
  start: number,
  end: number,
  key: string,
  name: string,
): Span | undefined {
  const inQuery = start > 0 && '?&;'.includes(line[start - 1]!);
  if ((name === 'sig' || name === 'signature') && !inQuery) return undefined;
  let at = end;
  if (line[at] === '\\') at++;
  if (line[at] === '"' || line[at] === "'") at++;
  const quoted = at > end;
  const afterKey = at;
  at = skipBlanks(line, at);
  if (line[at] === ':' && !inQuery) {
    const from = skipBlanks(line, at + 1);
    return from < line.length ? { from, to: line.length } : undefined;
  }
  if (line[at] === '=') {
    const from = skipBlanks(line, at + 1);
    const to = inQuery ? queryValueEnd(line, from) : shellWordEnd(line, from);
    return to > from ? { from, to } : undefined;
  }
  if (!quoted && at > afterKey && at < line.length && takesBareValue(line, start, key)) {
    const to = shellWordEnd(line, at);
    return to > at ? { from: at, to } : undefined;
  }
  return envValueAfter(line, start, end);
}

/** `--token x`, `requirepass x`, and `.netrc`'s `password x` (first on its line, or after `login user`). */
function takesBareValue(line: string, start: number, key: string): boolean {
  if (key.startsWith('--') || BARE_WORDS.has(key)) return true;
  if (key !== 'password' && key !== 'passwd') return false;
  if (start <= 200 && REDACTION_PATTERNS.onlyLineStart.test(line.slice(0, start))) return true;
  return NETRC_WORDS.has(wordBefore(line, wordStartBefore(line, start)).toLowerCase());
}

// `.netrc` words are short; a longer run before a key is not one of them.
const WORD_LIMIT = 64;

/** Where the word before `at` (past at least one blank) starts, or -1. */
function wordStartBefore(line: string, at: number): number {
  let i = at;
  if (!isBlank(line[i - 1])) return -1;
  while (i > 0 && isBlank(line[i - 1])) i--;
  const end = i;
  while (i > 0 && end - i < WORD_LIMIT && !isBlank(line[i - 1])) i--;
  return i > 0 && !isBlank(line[i - 1]) ? -1 : i;
}

/** The word before `at` (past at least one blank), or ''. */
function wordBefore(line: string, at: number): string {
  if (at < 0) return '';
  const start = wordStartBefore(line, at);
  if (start < 0) return '';
  let end = start;
  while (end < at && !isBlank(line[end])) end++;
  return line.slice(start, end);
}

function queryValueEnd(line: string, from: number): number {
  let to = from;
  while (to < line.length && !QUERY_END.has(line[to]!)) to++;
  return to;
}

/**
 * A Kubernetes env var printed on one line (JSON, or YAML inside a JSON string): when the key is the
 * value of a `name`, the `value` that follows it within a few separators is the secret.
 */
function envValueAfter(line: string, start: number, end: number): Span | undefined {
  if (!isValueOfName(line, start)) return undefined;
  let at = end;
  const limit = Math.min(line.length, end + 80);
  while (at < limit && !line.startsWith('value', at)) at++;
  if (at >= limit || !onlySeparators(line.slice(end, at))) return undefined;
  const rest = line.slice(at, at + 40);
  const value = REDACTION_PATTERNS.envValue.exec(rest);
  return value ? { from: at + value[0].length, to: line.length } : undefined;
}

/** Whether the line ends with a Kubernetes env var's `name: …PASSWORD`: its value is on the next line. */
export function endsWithSecretEnvName(line: string): boolean {
  let end = line.length;
  while (end > 0 && ' \t,"\'\\'.includes(line[end - 1]!)) end--;
  let last: { start: number; end: number } | undefined;
  for (const key of secretKeysIn(line.slice(Math.max(0, end - 200), end))) last = key;
  if (!last || last.end !== Math.min(end, 200)) return false;
  return isValueOfName(line, Math.max(0, end - 200) + last.start);
}

/** Whether what precedes the key is `name: `, `"name": "` or `\"name\":\"`. */
function isValueOfName(line: string, start: number): boolean {
  let at = start;
  const stop = Math.max(0, start - 20);
  while (at > stop && ' \t"\'\\'.includes(line[at - 1]!)) at--;
  if (line[at - 1] !== ':') return false;
  at--;
  while (at > stop && ' \t"\'\\'.includes(line[at - 1]!)) at--;
  return line.slice(Math.max(0, at - 4), at).toLowerCase() === 'name';
}

/** Quotes, commas, blanks, a list item's dash and `\n`-style escapes: what lies between a name and its value. */
function onlySeparators(between: string): boolean {
  for (let i = 0; i < between.length; i++) {
    const c = between[i]!;
    if (c === '\\' && 'nrt"'.includes(between[i + 1] ?? '')) i++;
    else if (!' \t\r\n"\',-+'.includes(c)) return false;
  }
  return true;
}
