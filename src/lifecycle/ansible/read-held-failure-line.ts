import type { AnsibleEvent } from './ansible-event.js';
import {
  consumed,
  handedOn,
  type ParseRun,
  type ParserMode,
  SCANNING,
  type Transition,
} from './parser-state.js';
import { readWarning } from './read-scanning-line.js';
import { recordResult } from './record-host-result.js';

/** The line after a failure: `...ignoring` forgives it, anything else but a warning lets it stand. */
export function readHeldFailureLine(
  run: ParseRun,
  mode: Extract<ParserMode, { name: 'held-failure' }>,
  line: string,
  events: AnsibleEvent[],
): Transition {
  if (line === '...ignoring') {
    events.push({ ...mode.failure, status: 'fatal-ignored' });
    return consumed(SCANNING);
  }
  // stderr warnings can interleave between a failure and its `...ignoring`.
  if (readWarning(run, line, events)) return consumed(mode);
  recordResult(run, events, mode.failure);
  return handedOn(SCANNING);
}
