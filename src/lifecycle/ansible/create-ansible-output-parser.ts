import type {
  AnsibleEvent,
  HostResultStatus,
  PlaybookFailure,
  PlaybookOutcome,
  ProgressState,
  Recap,
  RecapCounts,
} from './ansible-event.js';
import { extractResultMessage } from './extract-result-message.js';
import { type HostLine, parseHostLine } from './parse-host-line.js';
import { parseRecapLine } from './parse-recap-line.js';

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

// Bounds: a 100k-line run keeps counts and these, never its lines.
const KEPT_WARNINGS = 20;
const KEPT_ERRORS = 10;
const MAX_BODY_CHARS = 64 * 1024;

const PLAY_RECAP = /^PLAY RECAP \*+$/;
const PLAY = /^PLAY \[(.*)\] \*+$/;
const TASK = /^(?:TASK|RUNNING HANDLER) \[(.*)\] \*+$/;
const WARNING = /^\[(?:DEPRECATION )?WARNING\]: (.*)$/;
const ERROR = /^(?:ERROR! |\[ERROR\]: )(.*)$/;
const DIFF_START = /^(?:--- before|diff skipped: )/;
const DIFF_LINE = /^[-+ @\\]/;
const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

interface OpenBody {
  readonly line: HostLine;
  readonly style: 'json' | 'yaml';
  readonly keep: boolean;
  text: string;
}

/** Streaming parser of ansible-playbook output (default callback, no colour). Pure: no I/O. */
export function createAnsibleOutputParser(limits: AnsibleOutputParserLimits = {}): AnsibleOutputParser {
  const keptFailures = limits.failures ?? 20;
  const keptDiffLines = limits.diffLines ?? 40;

  let lineCount = 0;
  let playIndex = 0;
  let playName: string | null = null;
  let batch = 0;
  let taskIndex = 0;
  let taskName: string | null = null;
  let lastTask: string | null = null;
  let body: OpenBody | null = null;
  let inDiff = false;
  let diff: string[] = [];
  let inRecap = false;
  let recap: Record<string, RecapCounts> | null = null;
  let pendingFailure: Extract<AnsibleEvent, { type: 'host-result' }> | null = null;
  let failures: PlaybookFailure[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];

  const emitResult = (events: AnsibleEvent[], event: Extract<AnsibleEvent, { type: 'host-result' }>) => {
    events.push(event);
    if (event.status !== 'failed' && event.status !== 'unreachable') return;
    failures.push({
      host: event.host,
      task: event.task,
      msg: event.msg ?? '',
      kind: event.status,
      ...(event.item === undefined ? {} : { item: event.item }),
    });
    if (failures.length > keptFailures) failures = failures.slice(-keptFailures);
  };

  const releasePending = (events: AnsibleEvent[]) => {
    if (!pendingFailure) return;
    emitResult(events, pendingFailure);
    pendingFailure = null;
  };

  const closeRecap = (events: AnsibleEvent[]) => {
    if (!inRecap) return;
    inRecap = false;
    events.push({ type: 'recap', hosts: { ...recap } });
  };

  const finishHostLine = (events: AnsibleEvent[], line: HostLine, bodyText: string | null) => {
    const status: HostResultStatus = line.unreachable
      ? 'unreachable'
      : line.keyword === 'fatal' || line.keyword === 'failed'
        ? 'failed'
        : line.keyword;
    const failed = status === 'failed' || status === 'unreachable';
    const msg = failed && bodyText ? extractResultMessage(bodyText) : undefined;
    const event: Extract<AnsibleEvent, { type: 'host-result' }> = {
      type: 'host-result',
      status,
      host: line.host,
      task: taskName ?? '',
      ...(msg === undefined ? {} : { msg }),
      ...(line.item === undefined ? {} : { item: line.item }),
      ...(diff.length > 0 ? { diff } : {}),
    };
    diff = [];
    // `...ignoring` follows a failure it forgives, so a failure waits one line before it counts.
    if (failed) pendingFailure = event;
    else events.push(event);
  };

  /** Returns true when the line belonged to the open result body. */
  const feedBody = (events: AnsibleEvent[], line: string): boolean => {
    const open = body!;
    const belongs =
      open.style === 'json' ? line === '}' || /^\s/.test(line) : line === '' || /^\s/.test(line);
    if (belongs && open.keep && open.text.length < MAX_BODY_CHARS) open.text += `${line}\n`;
    if (belongs && !(open.style === 'json' && line === '}')) return true;
    body = null;
    finishHostLine(events, open.line, open.keep ? open.text : null);
    return belongs;
  };

  const onHostLine = (events: AnsibleEvent[], line: HostLine) => {
    const keep = line.keyword === 'fatal' || line.keyword === 'failed';
    if (line.body === '{' || line.body === '') {
      body = { line, style: line.body === '{' ? 'json' : 'yaml', keep, text: line.body === '{' ? '{\n' : '' };
      return;
    }
    finishHostLine(events, line, line.body);
  };

  const onIgnoring = (events: AnsibleEvent[]) => {
    if (pendingFailure) {
      events.push({ ...pendingFailure, status: 'fatal-ignored' });
      pendingFailure = null;
      return;
    }
    // A loop's `...ignoring` comes after all its items: it forgives the last failure of this task.
    const last = failures.at(-1);
    if (last && last.task === (taskName ?? '')) {
      failures = failures.slice(0, -1);
      events.push({
        type: 'host-result',
        status: 'fatal-ignored',
        host: last.host,
        task: last.task,
        msg: last.msg,
      });
    }
  };

  const dispatch = (events: AnsibleEvent[], line: string) => {
    if (inDiff) {
      if (line !== '' && DIFF_LINE.test(line)) {
        if (diff.length < keptDiffLines) diff.push(line);
        return;
      }
      inDiff = false;
      if (line === '') return;
    }
    if (inRecap) {
      const recapLine = parseRecapLine(line);
      if (recapLine) {
        recap = { ...recap, [recapLine.host]: recapLine.counts };
        return;
      }
      closeRecap(events);
    }
    if (line === '...ignoring') return onIgnoring(events);
    const hostLine = parseHostLine(line);
    if (hostLine) return onHostLine(events, hostLine);
    if (DIFF_START.test(line)) {
      inDiff = true;
      if (diff.length < keptDiffLines) diff.push(line);
      return;
    }
    let match = TASK.exec(line);
    if (match) {
      taskIndex += 1;
      taskName = match[1]!;
      lastTask = taskName;
      diff = [];
      events.push({ type: 'task', playIndex, taskIndex, name: taskName });
      return;
    }
    if (PLAY_RECAP.test(line)) {
      inRecap = true;
      recap = {};
      return;
    }
    match = PLAY.exec(line);
    if (match) {
      const name = match[1]!;
      // ansible repeats the banner for each `serial` batch of the same play.
      if (playIndex > 0 && name === playName) batch += 1;
      else {
        playIndex += 1;
        playName = name;
        batch = 1;
      }
      taskName = null;
      events.push({ type: 'play', index: playIndex, name, batch });
      return;
    }
    match = WARNING.exec(line);
    if (match) {
      if (warnings.length < KEPT_WARNINGS) warnings.push(match[1]!);
      events.push({ type: 'warning', text: match[1]! });
      return;
    }
    match = ERROR.exec(line);
    if (match) {
      if (errors.length < KEPT_ERRORS) errors.push(match[1]!);
      events.push({ type: 'error', text: match[1]! });
    }
  };

  return {
    push(raw) {
      lineCount += 1;
      const line = (raw.includes('\u001b') ? raw.replace(ESCAPE, '') : raw).replace(/\r$/, '');
      const events: AnsibleEvent[] = [];
      if (body && feedBody(events, line)) return events;
      if (pendingFailure) {
        if (line === '...ignoring') {
          onIgnoring(events);
          return events;
        }
        // stderr warnings can interleave between a failure and its `...ignoring`.
        if (!WARNING.test(line)) releasePending(events);
      }
      dispatch(events, line);
      return events;
    },
    progress: () => ({ playIndex, playName, taskIndex, taskName }),
    flush() {
      const events: AnsibleEvent[] = [];
      if (body) {
        const open = body;
        body = null;
        finishHostLine(events, open.line, open.keep ? open.text : null);
      }
      releasePending(events);
      closeRecap(events);
      return events;
    },
    result(exitCode) {
      this.flush();
      const failing = (counts: RecapCounts) => counts.failed > 0 || counts.unreachable > 0;
      // Rescued failures leave the host at failed=0: the recap decides which failures stood.
      const stood = recap
        ? failures.filter((failure) => {
            const counts = recap?.[failure.host];
            return counts === undefined || failing(counts);
          })
        : failures;
      const hostsFailed = recap ? Object.values(recap).some(failing) : stood.length > 0;
      return {
        ok: exitCode === 0 && !hostsFailed,
        exitCode,
        recap: recap as Recap | null,
        failures: stood,
        lastTask,
        warnings: [...warnings],
        errors: [...errors],
        lineCount,
      };
    },
  };
}
