import { formatDuration } from '../config/parse-duration.js';
import { describeEvent } from '../lifecycle/describe-event.js';
import type { LifecycleEvent, Reporter } from '../lifecycle/ports/reporter.js';
import type { Logger } from '../log/create-logger.js';
import type { BoardState, BoardStep } from './board-state.js';
import { renderBoard, truncate } from './render-board.js';
import type { SlackPoster } from './slack-poster.js';

export interface JobThread {
  readonly jobId: string;
  readonly channel: string;
  readonly alertsChannel: string;
  readonly cluster: string;
  /** The thread's root message, once posted. */
  threadTs: string | undefined;
  board: BoardState;
}

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
  /** Minimum time between two updates of the same message. */
  readonly updateIntervalMs?: number;
}

const TAIL_LINES = 12;

/**
 * Renders lifecycle events into a job's Slack thread: the root message is the status board,
 * replies carry the events, one reply holds a live tail of the output. Updates of the same message
 * are coalesced to about one a second; Slack trouble is logged and never fails the job.
 */
export function createThreadReporter(deps: ThreadReporterDeps): Reporter & { flush(): Promise<void> } {
  const { poster, thread, logger } = deps;
  const interval = deps.updateIntervalMs ?? 1_000;
  const tail: string[] = [];
  let tailTs: string | undefined;
  let tailStep: string | undefined;
  let boardDirty = false;
  let tailDirty = false;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const safely = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      logger.warn({ err: error, jobId: thread.jobId }, `slack: ${what} failed`);
    }
  };
  const reply = (text: string, blocks?: unknown[]) =>
    safely('thread reply', async () => {
      if (!thread.threadTs) return;
      await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text, blocks });
    });

  const flushNow = async () => {
    timer = undefined;
    if (boardDirty && thread.threadTs) {
      boardDirty = false;
      const ts = thread.threadTs;
      await safely('board update', () =>
        poster.update({ channel: thread.channel, ts, ...renderBoard(thread.board) }),
      );
    }
    if (tailDirty && thread.threadTs) {
      tailDirty = false;
      const text = `\`\`\`${truncate(tail.join('\n'), 2_800)}\`\`\``;
      await safely('output tail', async () => {
        if (tailTs) await poster.update({ channel: thread.channel, ts: tailTs, text });
        else tailTs = await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text });
      });
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      flushing = flushing.then(flushNow);
    }, interval);
  };
  const flush = async () => {
    if (timer) clearTimeout(timer);
    flushing = flushing.then(flushNow);
    await flushing;
  };
  const setStep = (stepId: string, patch: Partial<BoardStep>) => {
    thread.board = {
      ...thread.board,
      steps: thread.board.steps.map((step) => (step.id === stepId ? { ...step, ...patch } : step)),
    };
    boardDirty = true;
  };
  const titleOf = (stepId: string) => thread.board.steps.find((step) => step.id === stepId)?.title ?? stepId;

  return {
    flush,
    async output(stepId, line) {
      await deps.appendLog(line);
      if (tailStep !== stepId) {
        tailStep = stepId;
        tail.length = 0;
        tailTs = undefined;
      }
      tail.push(truncate(line, 300));
      if (tail.length > TAIL_LINES) tail.shift();
      tailDirty = true;
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
            await safely('root message', async () => {
              thread.threadTs = await poster.post({ channel: thread.channel, ...renderBoard(thread.board) });
            });
          } else if (event.resumed) {
            boardDirty = true;
          }
          break;
        }
        case 'step-started':
          setStep(event.stepId, { status: 'running', detail: undefined });
          await reply(`⏳ ${titleOf(event.stepId)} started`);
          break;
        case 'step-progress':
          setStep(event.stepId, { detail: event.text });
          break;
        case 'step-waiting':
          setStep(event.stepId, { status: 'waiting' });
          break;
        case 'step-finished':
          setStep(event.stepId, {
            status: event.status,
            durationMs: event.durationMs,
            detail: event.summary,
          });
          if (event.status === 'succeeded') {
            await reply(
              `✅ ${titleOf(event.stepId)} (${formatDuration(event.durationMs)}): ${truncate(event.summary, 2_500)}`,
            );
          } else if (event.status === 'failed') {
            await reply(
              `❌ ${titleOf(event.stepId)} failed after ${formatDuration(event.durationMs)}: ${truncate(event.summary, 2_500)}`,
            );
          }
          break;
        case 'note':
          await reply(`ℹ️ ${truncate(event.text, 2_800)}`);
          break;
        case 'gate-failed': {
          const link = thread.threadTs ? poster.permalink(thread.channel, thread.threadTs) : undefined;
          await safely('alert', () =>
            poster.post({
              channel: thread.alertsChannel,
              text: `🚨 ${thread.cluster}: gate *${event.gate}* failed: ${truncate(event.observed, 2_000)}${link ? `\n<${link}|job #${thread.board.jobNumber} thread>` : ''}`,
            }),
          );
          break;
        }
        case 'plan-finished': {
          thread.board = { ...thread.board, outcome: event.outcome, summary: event.summary };
          boardDirty = true;
          await flush();
          await reply(
            `${event.outcome === 'succeeded' ? '✅' : '❌'} job #${thread.board.jobNumber} ${event.outcome}: ${truncate(event.summary, 2_800)}`,
          );
          await safely('log upload', async () => {
            if (!thread.threadTs) return;
            await poster.upload({
              channel: thread.channel,
              threadTs: thread.threadTs,
              filename: `job-${thread.board.jobNumber}.log`,
              title: `job #${thread.board.jobNumber} log (redacted)`,
              content: await deps.readLog(),
            });
          });
          break;
        }
      }
      await deps.save(thread);
    },
  };
}
