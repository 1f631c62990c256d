import { type MatchBudget, UNLIMITED } from './match-budget.js';
import { REDACTION_PATTERNS } from './redaction-patterns.js';

/** Where a private key sits in a text: from its BEGIN line to the end of its END line, or to the end. */
export interface KeyBlock {
  readonly start: number;
  readonly end: number;
  readonly closed: boolean;
}

// A header's label is short; past this, a BEGIN is not a key's.
const LABEL_WINDOW = 120;

/**
 * The first private key block at or after `from`: PEM, OpenSSH and PGP (`-----BEGIN … PRIVATE KEY-----`),
 * RFC 4716 (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`) and PuTTY (`PuTTY-User-Key-File-` to its
 * `Private-MAC:`). The label may be broken by what printed it (a newline or its `\n` escape, the
 * quotes of list items, a diff marker): only its capitals are read, so `PRIV",\n "ATE KEY` still counts.
 */
export function findKeyBlock(text: string, from = 0, budget: MatchBudget = UNLIMITED): KeyBlock | undefined {
  const begin = new RegExp(REDACTION_PATTERNS.keyBlockStart);
  begin.lastIndex = from;
  for (let found = begin.exec(text); found; found = begin.exec(text)) {
    const start = found.index;
    budget.take(start);
    const headerEnd = found[0].startsWith('PuTTY')
      ? start + found[0].length
      : privateLabelEnd(text, begin.lastIndex);
    if (headerEnd === undefined) continue;
    return blockTo(text, start, headerEnd);
  }
  return undefined;
}

/** Just past the dashes closing a label that names a private key, or undefined for any other label. */
function privateLabelEnd(text: string, labelStart: number): number | undefined {
  const window = text.slice(labelStart, labelStart + LABEL_WINDOW);
  const dashes = window.indexOf('----');
  if (dashes < 0) return undefined;
  if (!capitalsOf(window.slice(0, dashes)).includes('PRIVATEKEY')) return undefined;
  let end = labelStart + dashes;
  while (text[end] === '-') end++;
  return end;
}

function blockTo(text: string, start: number, headerEnd: number): KeyBlock {
  const endMarker = new RegExp(REDACTION_PATTERNS.keyBlockEnd);
  endMarker.lastIndex = headerEnd;
  const found = endMarker.exec(text);
  if (!found) return { start, end: text.length, closed: false };
  let end = endMarker.lastIndex;
  if (found[0] === 'Private-MAC:') {
    while (text[end] === ' ') end++;
    while (end < text.length && isHexDigit(text.charCodeAt(end))) end++;
    return { start, end, closed: true };
  }
  const dashes = text.slice(end, end + LABEL_WINDOW).indexOf('----');
  if (dashes < 0) return { start, end: text.length, closed: false };
  end += dashes;
  while (text[end] === '-') end++;
  return { start, end, closed: true };
}

/** The capital letters of a label, an escape such as `\n` skipped whole. */
function capitalsOf(label: string): string {
  let capitals = '';
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === 92) i++;
    else if (c >= 65 && c <= 90) capitals += label[i];
  }
  return capitals;
}

const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
