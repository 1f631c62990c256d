const isBlank = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';

/**
 * Where the shell word starting at `at` ends: quoted parts, escapes and stray quotes included, as in
 * argv, an env line or `k=v` arguments (inside JSON text it runs over the escaped quotes). Linear: a
 * quote that never closes is read as a plain character, and after one such scan no later quote of
 * that kind can close either.
 */
export function shellWordEnd(text: string, at: number): number {
  let end = at;
  let unclosed = { "'": false, '"': false };
  while (end < text.length && !isBlank(text[end])) {
    const c = text[end]!;
    if (c === '\\') end += 2;
    else if ((c === "'" || c === '"') && !unclosed[c]) {
      const close = quoteEnd(text, end, c);
      if (close < 0) unclosed = { ...unclosed, [c]: true };
      end = close < 0 ? end + 1 : close + 1;
    } else end++;
  }
  return Math.min(end, text.length);
}

/** The closing quote of the quoted part opened at `open` on this line, or -1. */
function quoteEnd(text: string, open: number, quote: "'" | '"'): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') return -1;
    if (c === quote) return i;
    if (c === '\\' && quote === '"') i++;
  }
  return -1;
}
