import { unescapeMrkdwn } from '../bot/escape-mrkdwn.js';

/** How the terminal shows text: ANSI styles only when stdout is a TTY (a pipe or a log file gets plain text). */
export interface TerminalStyle {
  readonly tty: boolean;
}

const BOLD = ['\u001b[1m', '\u001b[22m'] as const;
const CODE = ['\u001b[36m', '\u001b[39m'] as const;
const STATE_COLOURS: Readonly<Record<string, string>> = {
  '✅': '\u001b[32m',
  '❌': '\u001b[31m',
  '⚠': '\u001b[33m',
  '⏳': '\u001b[33m',
};

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
 * itself are printed as `\x1b`.
 */
export function renderForTerminal(text: string, style: TerminalStyle): string {
  // Remote text's own control characters shown as visible marks before the bot adds its styles,
  // so a node's message cannot clear the screen or forge a line on the operator's terminal.
  const shown = text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
  // Split on the fences: odd parts are code blocks, where nothing is markup.
  const parts = shown.split('```');
  const rendered = parts.map((part, index) => {
    if (index % 2 === 0) return inline(part, style);
    if (index === parts.length - 1) return inline(`\`\`\`${part}`, style); // an unclosed fence is text
    const body = unescapeMrkdwn(part.replace(/^\n|\n$/g, ''));
    return `\n${body
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n')}\n`;
  });
  return rendered
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n+$/, '');
}

function inline(text: string, style: TerminalStyle): string {
  let out = text.replace(ANGLE, (_all, target: string, label: string | undefined) => angle(target, label));
  out = out.replace(CODE_SPAN, (_all, code: string) =>
    style.tty ? `${CODE[0]}${code}${CODE[1]}` : `\`${code}\``,
  );
  out = out.replace(BOLD_SPAN, (_all, before: string, body: string) =>
    style.tty ? `${before}${BOLD[0]}${body}${BOLD[1]}` : `${before}${body}`,
  );
  if (style.tty) {
    for (const [mark, colour] of Object.entries(STATE_COLOURS)) {
      out = out.replaceAll(mark, `${colour}${mark}\u001b[39m`);
    }
  }
  return unescapeMrkdwn(out);
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
  if (label === undefined || label === target) return target;
  return `${label} (${target})`;
}
