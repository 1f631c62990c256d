import type { AnsibleEvent } from './ansible-event.js';
import type { HostLine } from './parse-host-line.js';
import {
  consumed,
  handedOn,
  type OpenBody,
  type ParseRun,
  type ParserMode,
  type Transition,
} from './parser-state.js';
import { concludeHostLine } from './record-host-result.js';

// A 100k-line run keeps counts and bounded texts, never its lines.
const MAX_BODY_CHARS = 64 * 1024;

/** A host line either ends its result or opens a body (`=> {` or `=>` with YAML below). */
export function openHostLine(run: ParseRun, line: HostLine, events: AnsibleEvent[]): ParserMode {
  const keep = line.keyword === 'fatal' || line.keyword === 'failed';
  if (line.body === '{' || line.body === '') {
    const json = line.body === '{';
    return { name: 'body', body: { line, style: json ? 'json' : 'yaml', keep, text: json ? '{\n' : '' } };
  }
  return concludeHostLine(run, events, line, line.body);
}

/** Indented lines belong to the body; JSON ends on its `}`, YAML on the first line it does not own. */
export function readBodyLine(
  run: ParseRun,
  mode: Extract<ParserMode, { name: 'body' }>,
  line: string,
  events: AnsibleEvent[],
): Transition {
  const open = mode.body;
  const belongs = open.style === 'json' ? line === '}' || /^\s/.test(line) : line === '' || /^\s/.test(line);
  if (belongs && open.keep && open.text.length < MAX_BODY_CHARS) open.text += `${line}\n`;
  if (belongs && !(open.style === 'json' && line === '}')) return consumed(mode);
  const next = closeBody(run, open, events);
  return belongs ? consumed(next) : handedOn(next);
}

export function closeBody(run: ParseRun, open: OpenBody, events: AnsibleEvent[]): ParserMode {
  return concludeHostLine(run, events, open.line, open.keep ? open.text : null);
}
