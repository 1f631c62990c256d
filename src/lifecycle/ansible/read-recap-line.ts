import type { AnsibleEvent } from './ansible-event.js';
import { parseRecapLine } from './parse-recap-line.js';
import { consumed, handedOn, type ParseRun, RECAP, SCANNING, type Transition } from './parser-state.js';

/** Host rows add to the recap; the first other line closes it and is read as usual. */
export function readRecapLine(run: ParseRun, line: string, events: AnsibleEvent[]): Transition {
  const recapLine = parseRecapLine(line);
  if (recapLine) {
    run.recap = { ...run.recap, [recapLine.host]: recapLine.counts };
    return consumed(RECAP);
  }
  closeRecap(run, events);
  return handedOn(SCANNING);
}

export function closeRecap(run: ParseRun, events: AnsibleEvent[]): void {
  events.push({ type: 'recap', hosts: { ...run.recap } });
}
