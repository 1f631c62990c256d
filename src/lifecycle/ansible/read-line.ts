import type { AnsibleEvent } from './ansible-event.js';
import { consumed, type ParseRun, type ParserMode, SCANNING, type Transition } from './parser-state.js';
import { closeBody, readBodyLine } from './read-body-line.js';
import { readDiffLine } from './read-diff-line.js';
import { readHeldFailureLine } from './read-held-failure-line.js';
import { closeRecap, readRecapLine } from './read-recap-line.js';
import { readScanningLine } from './read-scanning-line.js';
import { recordResult } from './record-host-result.js';

/**
 * The transition table: reads one line in the current mode and returns the next. A mode that ends
 * on a line it does not own hands the line on (body → held failure → scanning, diff or recap →
 * scanning), so it takes at most three hops.
 */
export function readLine(run: ParseRun, mode: ParserMode, line: string, events: AnsibleEvent[]): ParserMode {
  const transition = readInMode(run, mode, line, events);
  return transition.handOn ? readLine(run, transition.next, line, events) : transition.next;
}

function readInMode(run: ParseRun, mode: ParserMode, line: string, events: AnsibleEvent[]): Transition {
  switch (mode.name) {
    case 'body':
      return readBodyLine(run, mode, line, events);
    case 'held-failure':
      return readHeldFailureLine(run, mode, line, events);
    case 'diff':
      return readDiffLine(run, line);
    case 'recap':
      return readRecapLine(run, line, events);
    case 'scanning':
      return consumed(readScanningLine(run, line, events));
  }
}

/** Concludes what is held back: an open body, a held failure, an open recap. */
export function flushMode(run: ParseRun, mode: ParserMode, events: AnsibleEvent[]): ParserMode {
  const afterBody = mode.name === 'body' ? closeBody(run, mode.body, events) : mode;
  if (afterBody.name === 'held-failure') recordResult(run, events, afterBody.failure);
  if (afterBody.name === 'recap') closeRecap(run, events);
  // A diff holds nothing back, so it stays open for the lines that may still come.
  return afterBody.name === 'diff' ? afterBody : SCANNING;
}
