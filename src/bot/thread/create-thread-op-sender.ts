import { THREAD_ROOT, type ThreadOpSender } from '../../delivery/delivery.js';
import type { BoardState } from '../../jobs/ports/job-thread.js';
import type { Logger } from '../../log/create-logger.js';
import type { JobPageUrl } from '../../wording/job-page-url.js';
import { renderBoard } from '../render-board.js';
import { isSlackRefusal, type SlackPoster } from '../slack-poster.js';
import { type ThreadOp, tailName } from './thread-op.js';
import { gateAlertText } from './thread-texts.js';

export interface ThreadOpSenderDeps {
  readonly poster: SlackPoster;
  readonly logger: Logger;
  /** The job's whole (redacted) log, for the final upload: from Redis, whichever process ran the job. */
  readonly readLog: (jobId: string) => Promise<string>;
  /** A job's page (signed link), when PUBLIC_URL is set: the board links to it. */
  readonly jobPageUrl?: JobPageUrl | undefined;
}

/**
 * Sends one operation of a job's thread outbox to Slack: the root message and each step's tail
 * are posted once, their ts kept (`messages`, delivery's), and later operations reply under that
 * root and edit those messages; a message whose ts is kept already is never posted again. Slack
 * refusing an operation is logged and the operation is done; any other failure is thrown, for a
 * retry.
 */
export function createThreadOpSender(deps: ThreadOpSenderDeps): ThreadOpSender {
  const send = createOpSender(deps);
  return async (jobId, raw, later, messages) => {
    try {
      await send(jobId, raw, later, messages);
    } catch (error) {
      if (!isSlackRefusal(error)) throw error;
      deps.logger.warn({ err: error, jobId }, 'thread: Slack refused a message; it is dropped');
    }
  };
}

function createOpSender(deps: ThreadOpSenderDeps): ThreadOpSender {
  const { poster } = deps;
  /** The board as posted: its page link, and a re-run's link to the thread of the job it re-runs (once that has one). */
  const board = async (
    jobId: string,
    state: BoardState,
    rootOf: (jobId: string) => Promise<string | undefined>,
  ) => {
    const original = state.rerunOf;
    const originalRoot = original && (await rootOf(original.jobId));
    return renderBoard(
      state,
      deps.jobPageUrl?.(jobId, state.pageNonce),
      originalRoot ? poster.permalink(original.channel, originalRoot) : undefined,
    );
  };
  return async (jobId, raw, later, messages) => {
    const op = JSON.parse(raw) as ThreadOp;
    const root = await messages.get(THREAD_ROOT);
    if (op.kind === 'root') {
      if (root) return;
      const ts = await poster.post({
        channel: op.channel,
        ...(await board(jobId, op.board, messages.rootOf)),
      });
      await messages.keep(THREAD_ROOT, ts);
      return;
    }
    if (op.kind === 'alert') {
      const link = root ? poster.permalink(op.threadChannel, root) : undefined;
      await poster.post({ channel: op.channel, text: gateAlertText(op, op, link) });
      return;
    }
    // Everything else lives in the thread: without its root (never posted), there is nowhere to put it.
    if (!root) return;
    const inThread = { channel: op.channel, threadTs: root };
    switch (op.kind) {
      case 'board':
        if (later.some((next) => (JSON.parse(next) as ThreadOp).kind === 'board')) return;
        return poster.update({
          channel: op.channel,
          ts: root,
          ...(await board(jobId, op.board, messages.rootOf)),
        });
      case 'tail': {
        const name = tailName(op.stepId);
        const ts = await messages.get(name);
        if (!ts) {
          await messages.keep(name, await poster.post({ ...inThread, text: op.text }));
          return;
        }
        if (later.some((next) => isTailOf(next, op.stepId))) return;
        return poster.update({ channel: op.channel, ts, text: op.text });
      }
      case 'reply':
        await poster.post({ ...inThread, text: op.text });
        return;
      case 'offer':
        await poster.post({ ...inThread, text: op.text, blocks: op.blocks });
        return;
      case 'final':
        return sendFinalReport(deps, jobId, root, op);
    }
  };
}

function isTailOf(raw: string, stepId: string): boolean {
  const op = JSON.parse(raw) as ThreadOp;
  return op.kind === 'tail' && op.stepId === stepId;
}

/** One message: the outcome with the log attached; should the upload fail, the outcome alone. */
async function sendFinalReport(
  deps: ThreadOpSenderDeps,
  jobId: string,
  threadTs: string,
  op: Extract<ThreadOp, { kind: 'final' }>,
): Promise<void> {
  const { poster } = deps;
  try {
    await poster.upload({
      channel: op.channel,
      threadTs,
      filename: `job-${op.jobNumber}.log`,
      title: `job #${op.jobNumber} log (redacted)`,
      content: await deps.readLog(jobId),
      comment: op.summary,
    });
  } catch (error) {
    deps.logger.warn({ err: error, jobId }, 'thread: log upload failed');
    await poster.post({ channel: op.channel, threadTs, text: op.summary });
  }
}
