import { truncate } from '../../wording/truncate.js';

const TAIL_LINES = 12;

/** Where live edits go: the thread's outbox, as a board edit or one step's output tail. */
export interface LiveTargets {
  board(): void;
  tail(stepId: string, lines: readonly string[]): void;
}

/** One step's live output message: created on its first line, then edited. */
interface OutputTail {
  readonly stepId: string;
  readonly lines: string[];
  dirty: boolean;
}

/**
 * The live part of a thread: the board and the current step's output tail change often, and Slack
 * allows about one edit a second. Edits are coalesced to one per interval, the board or the tail,
 * whichever waited longer, so neither starves while a playbook streams; the outbox's sender then
 * skips an edit a later one replaces.
 */
export function createLiveUpdates(targets: LiveTargets, intervalMs: number) {
  let tail: OutputTail | undefined;
  let boardDirty = false;
  let lastLive: 'board' | 'tail' = 'tail';
  let timer: NodeJS.Timeout | undefined;

  const updateBoard = () => {
    boardDirty = false;
    targets.board();
  };
  const updateTail = (of: OutputTail) => {
    of.dirty = false;
    targets.tail(of.stepId, of.lines);
  };
  const liveUpdate = () => {
    timer = undefined;
    const tailDue = tail?.dirty === true;
    const next = boardDirty && (!tailDue || lastLive === 'tail') ? 'board' : tailDue ? 'tail' : undefined;
    if (next === 'board') updateBoard();
    else if (next === 'tail' && tail) updateTail(tail);
    if (next) lastLive = next;
    if (boardDirty || tail?.dirty) schedule();
  };
  const schedule = () => {
    timer ??= setTimeout(liveUpdate, intervalMs);
  };
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  return {
    boardChanged() {
      boardDirty = true;
      schedule();
    },
    line(stepId: string, line: string) {
      if (tail?.stepId !== stepId) tail = { stepId, lines: [], dirty: false };
      tail.lines.push(truncate(line, 300));
      if (tail.lines.length > TAIL_LINES) tail.lines.shift();
      tail.dirty = true;
      schedule();
    },
    /** The step's last lines stay readable in its tail, whatever the live cadence skipped. */
    stepFinished(stepId: string) {
      if (tail?.stepId === stepId && tail.dirty) updateTail(tail);
    },
    /** Queues what is pending now instead of at the next tick. */
    flush() {
      stopTimer();
      if (boardDirty) updateBoard();
      if (tail?.dirty) updateTail(tail);
    },
    /** The board's last edit: no live update follows it. */
    finish() {
      stopTimer();
      updateBoard();
    },
  };
}
