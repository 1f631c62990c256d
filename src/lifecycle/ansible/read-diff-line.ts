import { consumed, DIFF, handedOn, type ParseRun, SCANNING, type Transition } from './parser-state.js';

const DIFF_LINE = /^[-+ @\\]/;

/** A blank line ends the diff; any other line that is not diff ends it and is read as usual. */
export function readDiffLine(run: ParseRun, line: string): Transition {
  if (line !== '' && DIFF_LINE.test(line)) {
    keepDiffLine(run, line);
    return consumed(DIFF);
  }
  return line === '' ? consumed(SCANNING) : handedOn(SCANNING);
}

export function keepDiffLine(run: ParseRun, line: string): void {
  if (run.diff.length < run.keptDiffLines) run.diff.push(line);
}
