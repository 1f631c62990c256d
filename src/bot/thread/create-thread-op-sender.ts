import {
  type HeldMessages,
  THREAD_ROOT,
  type ThreadMessages,
  type ThreadOpSender,
} from '../../delivery/delivery.js';
import type { BoardState } from '../../jobs/ports/job-thread.js';
import type { Logger } from '../../log/create-logger.js';
import type { JobPageUrl } from '../job-page-url.js';
import { renderBoard } from '../render-board.js';
import { isSlackRefusal, type SlackPoster } from '../slack-poster.js';
import { type ThreadOp, tailName } from './thread-op.js';
import { gateAlertText } from './thread-texts.js';

export interface ThreadOpSenderDeps {
  readonly poster: SlackPoster;
  readonly messages: ThreadMessages;
  readonly logger: Logger;
  /** The job's whole (redacted) log, for the final upload: from Redis, whichever process ran the job. */
  readonly readLog: (jobId: string) => Promise<string>;
  /** A job's page (signed link), when PUBLIC_URL is set: the board links to it. */
  readonly jobPageUrl?: JobPageUrl | undefined;
}

/**
 * Sends one operation of a job's thread outbox to Slack. The root message's ts and each tail's are
 * kept in Redis as they are sent, so whichever process sends the next operation replies under the
 * same root and edits the same messages; while a process holds the outbox, it reads them from its
 * `held` copy (read with the claim) rather than from Redis. A message already recorded is never posted twice, nor
 * one posted whose ts could not be kept yet (Redis failed): the retry keeps it then. A ts is kept
 * first-writer-wins: a holder whose post came back after another had posted and kept its own goes
 * on with the one kept (ThreadMessages.record), so the thread never moves. Slack refusing
 * an operation is logged and the operation is done; any other failure is thrown, for a retry.
 */
export function createThreadOpSender(deps: ThreadOpSenderDeps): ThreadOpSender {
  const send = createOpSender(deps);
  return async (jobId, raw, later, held) => {
    try {
      await send(jobId, raw, later, held);
    } catch (error) {
      if (!isSlackRefusal(error)) throw error;
      deps.logger.warn({ err: error, jobId }, 'thread: Slack refused a message; it is dropped');
    }
  };
}

function createOpSender(deps: ThreadOpSenderDeps): ThreadOpSender {
  const { poster, messages } = deps;
  /** ts posted whose keeping in Redis failed, by job and name. */
  const unkept = new Map<string, string>();
  /**
   * Records a posted message's ts and resolves to the one recorded: another's, should a holder that
   * took the outbox over meanwhile have posted and recorded its own (the stale post is left alone).
   */
  const keep = async (jobId: string, name: string, ts: string, held: HeldMessages | undefined) => {
    unkept.set(`${jobId}/${name}`, ts);
    const recorded = await messages.record(jobId, name, ts);
    unkept.delete(`${jobId}/${name}`);
    held?.set(name, recorded);
    return recorded;
  };
  const kept = async (jobId: string, name: string, held: HeldMessages | undefined) => {
    const ts = unkept.get(`${jobId}/${name}`);
    if (ts === undefined) return held ? held.get(name) : messages.get(jobId, name);
    return keep(jobId, name, ts, held);
  };
  /** The board as posted: its page link, and a re-run's link to the thread of the job it re-runs (once that has one). */
  const board = async (jobId: string, state: BoardState) => {
    const original = state.rerunOf;
    // The other job's root, from Redis: the held copy is this job's thread alone.
    const originalRoot = original && (await kept(original.jobId, THREAD_ROOT, undefined));
    return renderBoard(
      state,
      deps.jobPageUrl?.(jobId, state.pageNonce),
      originalRoot ? poster.permalink(original.channel, originalRoot) : undefined,
    );
  };
  return async (jobId, raw, later, held) => {
    const op = JSON.parse(raw) as ThreadOp;
    const root = await kept(jobId, THREAD_ROOT, held);
    if (op.kind === 'root') {
      if (root) return;
      const ts = await poster.post({
        channel: op.channel,
        ...(await board(jobId, op.board)),
      });
      await keep(jobId, THREAD_ROOT, ts, held);
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
          ...(await board(jobId, op.board)),
        });
      case 'tail': {
        const name = tailName(op.stepId);
        const ts = await kept(jobId, name, held);
        if (!ts) {
          await keep(jobId, name, await poster.post({ ...inThread, text: op.text }), held);
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
