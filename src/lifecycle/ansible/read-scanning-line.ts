import type { AnsibleEvent } from './ansible-event.js';
import { parseHostLine } from './parse-host-line.js';
import { DIFF, type ParseRun, type ParserMode, RECAP, SCANNING } from './parser-state.js';
import { openHostLine } from './read-body-line.js';
import { keepDiffLine } from './read-diff-line.js';
import { forgiveLastFailure } from './record-host-result.js';

// Bounds: a 100k-line run keeps counts and these, never its lines.
const KEPT_WARNINGS = 20;
const KEPT_ERRORS = 10;

const PLAY_RECAP = /^PLAY RECAP \*+$/;
const PLAY = /^PLAY \[(.*)\] \*+$/;
const TASK = /^(?:TASK|RUNNING HANDLER) \[(.*)\] \*+$/;
const WARNING = /^\[(?:DEPRECATION )?WARNING\]: (.*)$/;
const ERROR = /^(?:ERROR! |\[ERROR\]: )(.*)$/;
const DIFF_START = /^(?:--- before|diff skipped: )/;

/** A line outside any body, diff or recap: what it starts decides the next mode. */
export function readScanningLine(run: ParseRun, line: string, events: AnsibleEvent[]): ParserMode {
  if (line === '...ignoring') {
    forgiveLastFailure(run, events);
    return SCANNING;
  }
  const hostLine = parseHostLine(line);
  if (hostLine) return openHostLine(run, hostLine, events);
  if (DIFF_START.test(line)) {
    keepDiffLine(run, line);
    return DIFF;
  }
  const task = TASK.exec(line);
  if (task) startTask(run, task[1]!, events);
  else if (PLAY_RECAP.test(line)) {
    run.recap = {};
    return RECAP;
  } else {
    const play = PLAY.exec(line);
    if (play) startPlay(run, play[1]!, events);
    else if (!readWarning(run, line, events)) readError(run, line, events);
  }
  return SCANNING;
}

/** Returns true when the line was a warning (kept and emitted). */
export function readWarning(run: ParseRun, line: string, events: AnsibleEvent[]): boolean {
  const match = WARNING.exec(line);
  if (!match) return false;
  if (run.warnings.length < KEPT_WARNINGS) run.warnings.push(match[1]!);
  events.push({ type: 'warning', text: match[1]! });
  return true;
}

function readError(run: ParseRun, line: string, events: AnsibleEvent[]): void {
  const match = ERROR.exec(line);
  if (!match) return;
  if (run.errors.length < KEPT_ERRORS) run.errors.push(match[1]!);
  events.push({ type: 'error', text: match[1]! });
}

function startTask(run: ParseRun, name: string, events: AnsibleEvent[]): void {
  run.taskIndex += 1;
  run.taskName = name;
  run.lastTask = name;
  run.diff = [];
  events.push({ type: 'task', playIndex: run.playIndex, taskIndex: run.taskIndex, name });
}

function startPlay(run: ParseRun, name: string, events: AnsibleEvent[]): void {
  // ansible repeats the banner for each `serial` batch of the same play.
  if (run.playIndex > 0 && name === run.playName) run.batch += 1;
  else {
    run.playIndex += 1;
    run.playName = name;
    run.batch = 1;
  }
  run.taskName = null;
  events.push({ type: 'play', index: run.playIndex, name, batch: run.batch });
}
