import { REDACTION_PATTERNS } from './redaction-patterns.js';

const isBlank = (c: number) => c === 32 || (c >= 9 && c <= 13);

/**
 * Where the shell word starting at `at` ends: quoted parts, escapes and stray quotes included, as in
 * argv, an env line or `k=v` arguments (inside JSON text it runs over the escaped quotes). `text` is
 * one line. The regex engine reads the word's well-formed part in one step, several times faster
 * than a loop here over a line of quotes and escapes. Linear: a quote it stops at never closes on
 * the line, so it is read as a plain character, and no later quote of that kind can close either.
 */
export function shellWordEnd(text: string, at: number): number {
  const word = new RegExp(REDACTION_PATTERNS.shellWord);
  let end = at;
  while (end < text.length) {
    word.lastIndex = end;
    word.test(text);
    end = word.lastIndex;
    if (end >= text.length || isBlank(text.charCodeAt(end))) break;
    end++;
  }
  return Math.min(end, text.length);
}
