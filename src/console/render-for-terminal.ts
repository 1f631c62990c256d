import { unescapeMrkdwn } from './unescape-mrkdwn.js';

/** How the terminal shows text: ANSI styles only when stdout is a TTY (a pipe or a log file gets plain text). */
export interface TerminalStyle {
  readonly tty: boolean;
}

const COLOUR_END = '\u001b[39m';
const BOLD = ['\u001b[1m', '\u001b[22m'] as const;
const CODE = ['\u001b[36m', COLOUR_END] as const;
const STATE_COLOURS: Readonly<Record<string, string>> = {
  '✅': '\u001b[32m',
  '❌': '\u001b[31m',
  '⚠': '\u001b[33m',
  '⏳': '\u001b[33m',
};
/** The console's own styles, each sequence whole: the only escape sequences it sends a TTY on purpose. */
const OWN_STYLE = new RegExp(
  `(${[...new Set([...BOLD, ...CODE, ...Object.values(STATE_COLOURS)])]
    .map((sequence) => sequence.replace('[', '\\['))
    .join('|')})`,
);

/** Slack's `<…>` forms: mentions, channels, special mentions, links; the text part after `|` is optional. */
const ANGLE = /<([^<>|]*)(?:\|([^<>]*))?>/g;
/** `*bold*` as Slack reads it: the stars hug non-space text and stand at word edges. */
const BOLD_SPAN = /(^|[\s(>])\*(\S(?:[^*\n]*\S)?)\*(?=$|[\s.,;:!?)])/g;
const CODE_SPAN = /`([^`\n]+)`/g;
/** What a terminal obeys rather than shows (ESC starts colour, cursor and title sequences); tab and newline stay. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Slack mrkdwn as a person at a terminal would want it: `<@U0BOB>` as `@U0BOB`, `<#C1|ops>` as
 * `#ops`, `<url|text>` as `text (url)`, `&amp; &lt; &gt;` decoded (last, so escaped text never turns
 * into a link), code blocks on their own lines and untouched inside; on a TTY, bold and the states
 * (✅ ❌ ⚠) in colour, on anything else no escape codes at all; control characters in the text
 * itself are printed as `\x1b`. The threads' messages arrive so (src/bot words them); the console's
 * own answers are marked for the terminal from the start (terminal-marks.ts).
 */
export function renderForTerminal(text: string, style: TerminalStyle): string {
  // Remote text's own control characters shown as visible marks before the bot adds its styles,
  // so a node's message cannot clear the screen or forge a line on the operator's terminal.
  const shown = showControls(text);
  // Split on the fences: odd parts are code blocks, where nothing is markup.
  const parts = shown.split('```');
  const rendered = parts.map((part, index) => {
    if (index % 2 === 0) return inline(part, style);
    if (index === parts.length - 1) return inline(`\`\`\`${part}`, style); // an unclosed fence is text
    return codeBlock(unescapeMrkdwn(part));
  });
  return tidyLines(rendered.join(''));
}

/** A text's control characters as visible marks (`\x1b`): a terminal shows them instead of obeying them. */
export function showControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Everything the console prints, last: each control character shown, save the console's own
 * styles on a TTY. Whatever path a foreign value took into the text (one that skipped the marks'
 * `text`), it cannot move the cursor, clear the screen or retitle the terminal; at most it can
 * turn on one of the console's own colours.
 */
export function showForeignControls(text: string, style: TerminalStyle): string {
  if (!style.tty) return showControls(text);
  // Split on the own styles: the odd parts are those sequences, kept as they are.
  return text
    .split(OWN_STYLE)
    .map((part, index) => (index % 2 === 1 ? part : showControls(part)))
    .join('');
}

export function bold(text: string, style: TerminalStyle): string {
  return style.tty ? `${BOLD[0]}${text}${BOLD[1]}` : text;
}

export function code(text: string, style: TerminalStyle): string {
  return style.tty ? `${CODE[0]}${text}${CODE[1]}` : `\`${text}\``;
}

/** A code block on its own lines, indented, its text as it came. */
export function codeBlock(text: string): string {
  return `\n${text
    .replace(/^\n|\n$/g, '')
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}\n`;
}

/** The states (✅ ❌ ⚠ ⏳) in their colours on a TTY. */
export function colourStates(text: string, style: TerminalStyle): string {
  if (!style.tty) return text;
  let out = text;
  for (const [mark, colour] of Object.entries(STATE_COLOURS)) {
    out = out.replaceAll(mark, `${colour}${mark}${COLOUR_END}`);
  }
  return out;
}

/** At most one blank line in a row (a code block brings its own), and none at the end. */
export function tidyLines(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '');
}

function inline(text: string, style: TerminalStyle): string {
  let out = text.replace(ANGLE, (_all, target: string, label: string | undefined) => angle(target, label));
  out = out.replace(CODE_SPAN, (_all, span: string) => code(span, style));
  out = out.replace(BOLD_SPAN, (_all, before: string, body: string) => `${before}${bold(body, style)}`);
  return unescapeMrkdwn(colourStates(out, style));
}

function angle(target: string, label: string | undefined): string {
  if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('!')) {
    // <!here>, <!channel>, <!subteam^S1|@ops>, <!date^…|fallback>
    if (label !== undefined) return label;
    const [name, id] = target.slice(1).split('^');
    return `@${name === 'subteam' && id ? id : name}`;
  }
  return link(target, label);
}

/** A link as its text and its address, or the address alone when it has no other text. */
export function link(url: string, label: string | undefined): string {
  if (label === undefined || label === url) return url;
  return `${label} (${url})`;
}
