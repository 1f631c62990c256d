import { type MatchBudget, UNLIMITED } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';

/** A key token around a secret name: `ansible_become_password`, `--vault-token`, `X-Amz-Signature`. */
export interface SecretKey {
  readonly start: number;
  readonly end: number;
  /** The key as written, lower-cased. */
  readonly key: string;
  /** The secret name found in it, lower-cased. */
  readonly name: string;
}

const isKeyChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

/**
 * Each key in a line that names a secret, left to right, none overlapping: the secret name grown to
 * the whole run of key characters around it (never back past the previous key). A key that ends in
 * `file`, `path` or `dir` holds a path, which is no secret. Names that are also ordinary words count
 * only as the whole key (`auth`, `sig`) or its last part (`vault_pw`).
 */
export function* secretKeysIn(line: string, budget: MatchBudget = UNLIMITED): Generator<SecretKey> {
  const names = new RegExp(REDACTION_PATTERNS.secretName);
  const rest = new RegExp(REDACTION_PATTERNS.keyRest);
  let scanned = 0;
  for (let found = names.exec(line); found; found = names.exec(line)) {
    budget.take(found.index);
    let start = found.index;
    while (start > scanned && isKeyChar(line.charCodeAt(start - 1))) start--;
    // A long key (`tokentoken…`) is read by the regex engine, several times faster than a loop here.
    rest.lastIndex = found.index + found[0].length;
    rest.test(line);
    const end = rest.lastIndex;
    scanned = end;
    names.lastIndex = end;
    const key = line.slice(start, end).toLowerCase();
    const name = found[0].toLowerCase();
    if (namesSecret(key, name)) yield { start, end, key, name };
  }
}

function namesSecret(key: string, name: string): boolean {
  if (key.endsWith('file') || key.endsWith('path') || key.endsWith('dir')) return false;
  let dashes = 0;
  while (key[dashes] === '-') dashes++;
  const bare = key.slice(dashes);
  if (name === 'auth' || name === 'sig') return bare === name;
  if (name === 'pw') return bare === 'pw' || key.endsWith('_pw') || key.endsWith('-pw');
  return true;
}
