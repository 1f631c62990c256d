import { truncate } from '../render-board.js';
import type { Outbox } from './create-outbox.js';

const TAIL_LINES = 12;

/** Where live edits land: the board (root message) and one step's output tail. */
export interface LiveTargets {
  board(): Promise<void>;
  /** Posts the tail (no ts yet) or edits it; returns the tail message's ts. */
  tail(lines: readonly string[], ts: string | undefined): Promise<string | undefined>;
}

/** One step's live output message: created on its first line, then edited. */
interface OutputTail {
  readonly stepId: string;
  readonly lines: string[];
  ts: string | undefined;
  dirty: boolean;
}

/**
 * The live part of a thread: the board and the current step's output tail change often, and Slack
 * allows about one edit a second. Edits are coalesced to one call per interval, the board or the
 * tail, whichever waited longer, so neither starves while a playbook streams.
 */
export function createLiveUpdates(targets: LiveTargets, outbox: Outbox, intervalMs: number) {
  let tail: OutputTail | undefined;
  let boardDirty = false;
  let lastLive: 'board' | 'tail' = 'tail';
  let timer: NodeJS.Timeout | undefined;

  const updateBoard = async () => {
    boardDirty = false;
    await targets.board();
  };
  const updateTail = async (of: OutputTail) => {
    of.dirty = false;
    of.ts = await targets.tail(of.lines, of.ts);
  };
  const liveUpdate = async () => {
    timer = undefined;
    const tailDue = tail?.dirty === true;
    const next = boardDirty && (!tailDue || lastLive === 'tail') ? 'board' : tailDue ? 'tail' : undefined;
    if (next === 'board') await updateBoard();
    else if (next === 'tail' && tail) await updateTail(tail);
    if (next) lastLive = next;
    if (boardDirty || tail?.dirty) schedule();
  };
  const schedule = () => {
    timer ??= setTimeout(() => outbox.send('live update', liveUpdate), intervalMs);
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
      if (tail?.stepId !== stepId) tail = { stepId, lines: [], ts: undefined, dirty: false };
      tail.lines.push(truncate(line, 300));
      if (tail.lines.length > TAIL_LINES) tail.lines.shift();
      tail.dirty = true;
      schedule();
    },
    /** The step's last lines stay readable in its tail, whatever the live cadence skipped. */
    stepFinished(stepId: string) {
      const finished = tail?.stepId === stepId && tail.dirty ? tail : undefined;
      if (finished) outbox.send('output tail', () => updateTail(finished));
    },
    /** Sends what is pending now instead of at the next tick. */
    flush() {
      stopTimer();
      const pending = tail;
      outbox.send('board update', async () => {
        if (boardDirty) await updateBoard();
        if (pending?.dirty) await updateTail(pending);
      });
    },
    /** The board's last edit: no live update follows it. */
    finish() {
      boardDirty = true;
      stopTimer();
      outbox.send('board update', updateBoard);
    },
  };
}
