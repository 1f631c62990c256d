import type { AnsibleEvent, PlaybookOutcome, ProgressState } from './ansible-event.js';
import { concludePlaybook } from './conclude-playbook.js';
import { createParseRun, type ParserMode, SCANNING } from './parser-state.js';
import { flushMode, readLine } from './read-line.js';

export interface AnsibleOutputParser {
  /** Feeds one output line (stdout or stderr, without its newline); returns what it completed. */
  push(line: string): AnsibleEvent[];
  progress(): ProgressState;
  /** Events still held back (an unclosed result body, a failure awaiting `...ignoring`, the recap). */
  flush(): AnsibleEvent[];
  /** Concludes (flushing first); call after the process ended. */
  result(exitCode: number | null): PlaybookOutcome;
}

export interface AnsibleOutputParserLimits {
  /** Failures kept (the most recent). */
  readonly failures?: number;
  /** Diff lines kept per host result. */
  readonly diffLines?: number;
}

const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/**
 * Streaming parser of ansible-playbook output (default callback, no colour). Pure: no I/O.
 * A state machine: `mode` is what the next line can be (see `ParserMode`), `run` what it added up.
 */
export function createAnsibleOutputParser(limits: AnsibleOutputParserLimits = {}): AnsibleOutputParser {
  const run = createParseRun(limits);
  let mode: ParserMode = SCANNING;

  const flush = () => {
    const events: AnsibleEvent[] = [];
    mode = flushMode(run, mode, events);
    return events;
  };

  return {
    push(raw) {
      run.lineCount += 1;
      const line = (raw.includes('\u001b') ? raw.replace(ESCAPE, '') : raw).replace(/\r$/, '');
      const events: AnsibleEvent[] = [];
      mode = readLine(run, mode, line, events);
      return events;
    },
    progress: () => ({
      playIndex: run.playIndex,
      playName: run.playName,
      taskIndex: run.taskIndex,
      taskName: run.taskName,
    }),
    flush,
    result(exitCode) {
      flush();
      return concludePlaybook(run, exitCode);
    },
  };
}
