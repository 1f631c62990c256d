import type { BoardStep, JobThread } from '../jobs/ports/job-thread.js';
import { describeEvent } from '../lifecycle/describe-event.js';
import type { LifecycleEvent, Reporter } from '../lifecycle/ports/reporter.js';
import type { Logger } from '../log/create-logger.js';
import { ciliumRollbackOffer } from './cilium-rollback-offer.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { renderBoard, truncate } from './render-board.js';
import type { SlackPoster } from './slack-poster.js';
import { createLiveUpdates } from './thread/create-live-updates.js';
import { createOutbox } from './thread/create-outbox.js';
import { gateAlertText, noteText, outcomeText, stepFinishedText } from './thread/thread-texts.js';

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
  /** The job's page (signed link), when PUBLIC_URL is set: the board links to it. */
  readonly pageUrl?: string | undefined;
  /** Minimum time between two live updates (board or output tail) of this job's messages. */
  readonly updateIntervalMs?: number;
}

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

/**
 * Renders lifecycle events into a job's Slack thread: the root message is the status board,
 * replies carry step results, notes and alerts, and one reply per step holds a live tail of its
 * output. The engine never waits for Slack: messages leave in order from an outbox, live edits are
 * coalesced (create-live-updates.ts), and Slack trouble is logged and never fails the job.
 * `flush()` resolves once everything is out.
 */
export function createThreadReporter(
  deps: ThreadReporterDeps,
): Reporter & { flush(): Promise<void>; notice(mrkdwn: string): Promise<void> } {
  const { poster, thread, logger } = deps;
  const outbox = createOutbox((what, error) =>
    logger.warn({ err: error, jobId: thread.jobId }, `thread: ${what} failed`),
  );
  const live = createLiveUpdates(
    {
      async board() {
        if (thread.threadTs)
          await poster.update({
            channel: thread.channel,
            ts: thread.threadTs,
            ...renderBoard(thread.board, deps.pageUrl),
          });
      },
      async tail(lines, ts) {
        if (!thread.threadTs) return ts;
        const text = `\`\`\`${escapeMrkdwn(truncate(lines.join('\n'), 2_800))}\`\`\``;
        if (!ts) return poster.post({ channel: thread.channel, threadTs: thread.threadTs, text });
        await poster.update({ channel: thread.channel, ts, text });
        return ts;
      },
    },
    outbox,
    deps.updateIntervalMs ?? 2_000,
  );
  // A reply sent before the thread has its root message (a cancel noticed before the plan started)
  // waits for the root instead of being lost.
  const early: string[] = [];
  const post = (text: string) => poster.post({ channel: thread.channel, threadTs: thread.threadTs, text });
  const reply = (text: string) =>
    outbox.send('thread reply', async () => {
      if (thread.threadTs) await post(text);
      else early.push(text);
    });
  const setStep = (stepId: string, patch: Partial<BoardStep>) => {
    thread.board = {
      ...thread.board,
      steps: thread.board.steps.map((step) => (step.id === stepId ? { ...step, ...patch } : step)),
    };
    live.boardChanged();
  };
  const sendEarlyReplies = async () => {
    for (const text of early.splice(0)) await post(text);
  };
  const render = createEventRenderer({ ...deps, outbox, live, reply, setStep, sendEarlyReplies });

  return {
    async flush() {
      live.flush();
      await outbox.drained();
    },
    /** A reply the bot words itself (its mentions and links stay live): never remote text. */
    async notice(mrkdwn) {
      await deps.appendLog(`# ${mrkdwn}`);
      reply(mrkdwn);
    },
    async output(stepId, line) {
      await deps.appendLog(line);
      live.line(stepId, line);
    },
    async emit(event: LifecycleEvent) {
      await deps.appendLog(`# ${describeEvent(event)}`);
      render(event);
      if (SAVED_AFTER.has(event.type)) outbox.send('thread save', () => deps.save(thread));
    },
  };
}

interface EventRendererDeps extends ThreadReporterDeps {
  readonly outbox: ReturnType<typeof createOutbox>;
  readonly live: ReturnType<typeof createLiveUpdates>;
  reply(text: string): void;
  setStep(stepId: string, patch: Partial<BoardStep>): void;
  /** Right after the root message: the replies that came before it. */
  sendEarlyReplies(): Promise<void>;
}

/** What each lifecycle event changes in the thread: the board, a reply, an alert, the final report. */
function createEventRenderer(deps: EventRendererDeps) {
  const { poster, thread, outbox, live, reply, setStep, sendEarlyReplies } = deps;
  return (event: LifecycleEvent) => {
    switch (event.type) {
      case 'plan-started':
        if (thread.board.steps.length === 0) {
          thread.board = {
            ...thread.board,
            steps: event.steps.map((step) => ({ ...step, status: 'pending' })),
          };
        }
        if (!thread.threadTs) {
          outbox.send('root message', async () => {
            thread.threadTs = await poster.post({
              channel: thread.channel,
              ...renderBoard(thread.board, deps.pageUrl),
            });
            await sendEarlyReplies();
          });
        } else if (event.resumed) live.boardChanged();
        return;
      case 'step-started':
        return setStep(event.stepId, { status: 'running', detail: undefined });
      case 'step-progress':
        return setStep(event.stepId, { detail: event.text });
      case 'step-waiting':
        return setStep(event.stepId, { status: 'waiting' });
      case 'step-finished': {
        setStep(event.stepId, { status: event.status, durationMs: event.durationMs, detail: event.summary });
        live.stepFinished(event.stepId);
        const text = stepFinishedText(thread, event);
        if (text) reply(text);
        return;
      }
      case 'note':
        return reply(noteText(event));
      case 'gate-failed':
        return outbox.send('alert', async () => {
          const link = thread.threadTs ? poster.permalink(thread.channel, thread.threadTs) : undefined;
          await poster.post({ channel: thread.alertsChannel, text: gateAlertText(thread, event, link) });
        });
      case 'plan-finished':
        thread.board = { ...thread.board, outcome: event.outcome, summary: event.summary };
        live.finish();
        outbox.send('final report', () => sendFinalReport(deps, outcomeText(thread, event)));
        return offerCiliumRollback(deps);
    }
  };
}

/** After the final report of a halted Cilium rollout: the Roll back Cilium button. */
function offerCiliumRollback(deps: EventRendererDeps): void {
  const { poster, thread, outbox } = deps;
  const offer = ciliumRollbackOffer(thread);
  if (!offer) return;
  outbox.send('rollback offer', async () => {
    if (thread.threadTs) await poster.post({ channel: thread.channel, threadTs: thread.threadTs, ...offer });
  });
}

/** One message: the outcome with the log attached; should the upload fail, the outcome alone. */
async function sendFinalReport(deps: ThreadReporterDeps, summary: string): Promise<void> {
  const { poster, thread } = deps;
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
    deps.logger.warn({ err: error, jobId: thread.jobId }, 'thread: log upload failed');
    await poster.post({ channel: thread.channel, threadTs: thread.threadTs, text: summary });
  }
}
