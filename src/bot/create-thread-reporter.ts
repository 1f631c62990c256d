import { formatDuration } from '../config/parse-duration.js';
import type { BoardStep, JobThread } from '../jobs/ports/job-thread.js';
import { describeEvent } from '../lifecycle/describe-event.js';
import type { LifecycleEvent, Reporter } from '../lifecycle/ports/reporter.js';
import type { Logger } from '../log/create-logger.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { renderBoard, truncate } from './render-board.js';
import type { SlackPoster } from './slack-poster.js';

export interface ThreadReporterDeps {
  readonly poster: SlackPoster;
  readonly logger: Logger;
  readonly thread: JobThread;
  /** Persists the thread (root ts + board) so a resumed job keeps updating the same messages. */
  save(thread: JobThread): Promise<void>;
  /** Appends to the job's full log (kept on disk, uploaded at the end). */
  appendLog(line: string): void | Promise<void>;
  /** The full log's text for the final upload. */
  readLog(): Promise<string>;
  /** Minimum time between two live updates (board or output tail) of this job's messages. */
  readonly updateIntervalMs?: number;
}

const TAIL_LINES = 12;

/**
 * Events after which the thread is saved: the root message's ts and every step's end state are
 * what a resumed job needs. Progress, notes and starts are re-emitted or harmless to lose, and
 * saving them would cost a Redis write per event.
 */
const SAVED_AFTER: ReadonlySet<LifecycleEvent['type']> = new Set([
  'plan-started',
  'step-waiting',
  'step-finished',
  'plan-finished',
]);

/** One step's live output message: created on its first line, then edited. */
interface OutputTail {
  readonly stepId: string;
  readonly lines: string[];
  ts: string | undefined;
  dirty: boolean;
}

/**
 * Renders lifecycle events into a job's Slack thread: the root message is the status board,
 * replies carry step results, notes and alerts, and one reply per step holds a live tail of its
 * output. The engine never waits for Slack: messages leave in order from an outbox, live edits are
 * coalesced to one call per interval (the board or the tail, whichever waited longer), and Slack
 * trouble is logged and never fails the job. `flush()` resolves once everything is out.
 */
export function createThreadReporter(
  deps: ThreadReporterDeps,
): Reporter & { flush(): Promise<void>; notice(mrkdwn: string): Promise<void> } {
  const { poster, thread, logger } = deps;
  const interval = deps.updateIntervalMs ?? 2_000;
  let tail: OutputTail | undefined;
  let boardDirty = false;
  let lastLive: 'board' | 'tail' = 'tail';
  let timer: NodeJS.Timeout | undefined;
  let outbox: Promise<void> = Promise.resolve();

  const send = (what: string, action: () => Promise<unknown>) => {
    outbox = outbox.then(async () => {
      try {
        await action();
      } catch (error) {
        logger.warn({ err: error, jobId: thread.jobId }, `thread: ${what} failed`);
      }
    });
  };
  const reply = (text: string) =>
    send('thread reply', async () => {
      if (thread.threadTs) await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text });
    });
  const updateBoard = async () => {
    boardDirty = false;
    if (thread.threadTs)
      await poster.update({ channel: thread.channel, ts: thread.threadTs, ...renderBoard(thread.board) });
  };
  const updateTail = async (of: OutputTail) => {
    of.dirty = false;
    if (!thread.threadTs) return;
    const text = `\`\`\`${escapeMrkdwn(truncate(of.lines.join('\n'), 2_800))}\`\`\``;
    if (of.ts) await poster.update({ channel: thread.channel, ts: of.ts, text });
    else of.ts = await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text });
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
    timer ??= setTimeout(() => send('live update', liveUpdate), interval);
  };
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const pending = tail;
    send('board update', async () => {
      if (boardDirty) await updateBoard();
      if (pending?.dirty) await updateTail(pending);
    });
    await outbox;
  };
  const setStep = (stepId: string, patch: Partial<BoardStep>) => {
    thread.board = {
      ...thread.board,
      steps: thread.board.steps.map((step) => (step.id === stepId ? { ...step, ...patch } : step)),
    };
    boardDirty = true;
    schedule();
  };
  const titleOf = (stepId: string) =>
    escapeMrkdwn(thread.board.steps.find((step) => step.id === stepId)?.title ?? stepId);
  // Everything an event carries is remote or config text: escaped. Only the bot's own words are mrkdwn.
  const plain = (text: string, max: number) => escapeMrkdwn(truncate(text, max));

  return {
    flush,
    /** A reply the bot words itself (its mentions and links stay live): never remote text. */
    async notice(mrkdwn) {
      await deps.appendLog(`# ${mrkdwn}`);
      reply(mrkdwn);
    },
    async output(stepId, line) {
      await deps.appendLog(line);
      if (tail?.stepId !== stepId) tail = { stepId, lines: [], ts: undefined, dirty: false };
      tail.lines.push(truncate(line, 300));
      if (tail.lines.length > TAIL_LINES) tail.lines.shift();
      tail.dirty = true;
      schedule();
    },
    async emit(event: LifecycleEvent) {
      await deps.appendLog(`# ${describeEvent(event)}`);
      switch (event.type) {
        case 'plan-started': {
          if (thread.board.steps.length === 0) {
            thread.board = {
              ...thread.board,
              steps: event.steps.map((step) => ({ ...step, status: 'pending' })),
            };
          }
          if (!thread.threadTs) {
            send('root message', async () => {
              thread.threadTs = await poster.post({ channel: thread.channel, ...renderBoard(thread.board) });
            });
          } else if (event.resumed) {
            boardDirty = true;
            schedule();
          }
          break;
        }
        case 'step-started':
          setStep(event.stepId, { status: 'running', detail: undefined });
          break;
        case 'step-progress':
          setStep(event.stepId, { detail: event.text });
          break;
        case 'step-waiting':
          setStep(event.stepId, { status: 'waiting' });
          break;
        case 'step-finished': {
          setStep(event.stepId, {
            status: event.status,
            durationMs: event.durationMs,
            detail: event.summary,
          });
          // The step's last lines stay readable in its tail, whatever the live cadence skipped.
          const finished = tail?.stepId === event.stepId && tail.dirty ? tail : undefined;
          if (finished) send('output tail', () => updateTail(finished));
          if (event.status === 'succeeded') {
            reply(
              `✅ ${titleOf(event.stepId)} (${formatDuration(event.durationMs)}): ${plain(event.summary, 2_500)}`,
            );
          } else if (event.status === 'failed') {
            reply(
              `❌ ${titleOf(event.stepId)} failed after ${formatDuration(event.durationMs)}: ${plain(event.summary, 2_500)}`,
            );
          }
          break;
        }
        case 'note':
          reply(`ℹ️ ${plain(event.text, 2_800)}`);
          break;
        case 'gate-failed':
          send('alert', async () => {
            const link = thread.threadTs ? poster.permalink(thread.channel, thread.threadTs) : undefined;
            await poster.post({
              channel: thread.alertsChannel,
              text: `🚨 ${escapeMrkdwn(thread.cluster)}: gate *${escapeMrkdwn(event.gate)}* failed: ${plain(event.observed, 2_000)}${link ? `\n<${link}|job #${thread.board.jobNumber} thread>` : ''}`,
            });
          });
          break;
        case 'plan-finished': {
          thread.board = { ...thread.board, outcome: event.outcome, summary: event.summary };
          boardDirty = true;
          clearTimeout(timer);
          timer = undefined;
          send('board update', updateBoard);
          const summary = `${event.outcome === 'succeeded' ? '✅' : '❌'} job #${thread.board.jobNumber} ${event.outcome}: ${plain(event.summary, 2_800)}`;
          // One message: the outcome with the log attached; should the upload fail, the outcome alone.
          send('final report', async () => {
            if (!thread.threadTs) return;
            try {
              await poster.upload({
                channel: thread.channel,
                threadTs: thread.threadTs,
                filename: `job-${thread.board.jobNumber}.log`,
                title: `job #${thread.board.jobNumber} log (redacted)`,
                content: await deps.readLog(),
                comment: summary,
              });
            } catch (error) {
              logger.warn({ err: error, jobId: thread.jobId }, 'thread: log upload failed');
              await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text: summary });
            }
          });
          break;
        }
      }
      if (SAVED_AFTER.has(event.type)) send('thread save', () => deps.save(thread));
    },
  };
}
