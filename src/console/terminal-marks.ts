import type { Marks } from '../wording/marks.js';
import {
  bold,
  code,
  codeBlock,
  colourStates,
  link,
  showControls,
  type TerminalStyle,
  tidyLines,
} from './render-for-terminal.js';

/**
 * The wording's marks for a terminal: people and channels by their id (`@U0BOB`, `#C0OPS`), a
 * link as its text and address, a date in UTC; bold and code in ANSI on a TTY only; others' text
 * with its control characters shown, never obeyed.
 */
export function terminalMarks(style: TerminalStyle): Marks {
  return {
    text: showControls,
    bold: (marked) => bold(marked, style),
    code: (marked) => code(marked, style),
    block: (raw) => codeBlock(showControls(raw)),
    user: (id) => `@${id}`,
    mention: (id) => `@${id}`,
    channel: (id) => `#${id}`,
    link,
    date: (_at, utc) => utc,
  };
}

/** Marked words as printed: the states in colour on a TTY, at most one blank line, none at the end. */
export function finishForTerminal(marked: string, style: TerminalStyle): string {
  return tidyLines(colourStates(marked, style));
}
