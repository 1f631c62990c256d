import { formatDuration } from '../config/parse-duration.js';
import type { BoardState, BoardStepStatus } from '../jobs/ports/job-thread.js';
import { OUTCOME } from '../wording/outcome.js';
import { truncate } from '../wording/truncate.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { pageLinkMrkdwn } from './job-page-url.js';

const ICON: Readonly<Record<BoardStepStatus, string>> = {
  pending: '▫️',
  running: '⏳',
  waiting: '⏸',
  succeeded: '✅',
  failed: '❌',
  skipped: '⏭',
};

/**
 * The root message of a job's thread: one line per step, updated in place; `pageUrl` links the
 * job's page, `rerunOfUrl` the thread of the job it re-runs.
 */
export function renderBoard(
  board: BoardState,
  pageUrl?: string,
  rerunOfUrl?: string,
): { text: string; blocks: unknown[] } {
  const page = pageUrl ? ` · ${pageLinkMrkdwn(pageUrl, 'job page: whole log and timeline')}` : '';
  const original = board.rerunOf && `#${board.rerunOf.number}`;
  const rerun = original
    ? ` · re-run of ${rerunOfUrl ? pageLinkMrkdwn(rerunOfUrl, original) : original}`
    : '';
  const header = `*${escapeMrkdwn(board.title)}* · job #${board.jobNumber}${rerun} · asked by <@${board.requestedBy}>${page}`;
  const status = board.outcome ? OUTCOME[board.outcome] : liveStatus(board);
  const lines = board.steps.map((step, index) => {
    const duration =
      step.durationMs !== undefined && step.status !== 'skipped'
        ? ` (${formatDuration(step.durationMs)})`
        : '';
    const mark = step.disruptive ? ' ⚠' : '';
    const detail =
      step.detail && step.status !== 'succeeded' ? ` — ${escapeMrkdwn(truncate(step.detail, 150))}` : '';
    const waiting = step.status === 'waiting' ? ' waiting for approval' : '';
    return `${ICON[step.status]} ${index + 1}. ${escapeMrkdwn(step.title)}${mark} → ${escapeMrkdwn(step.target)}${waiting}${duration}${detail}`;
  });
  const summary = board.summary ? `\n${escapeMrkdwn(truncate(board.summary, 500))}` : '';
  const text = `${header}\nStatus: ${status}${summary}\n${lines.join('\n')}`;
  return {
    text: truncate(text, 3_900),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: truncate(`${header}\nStatus: *${status}*${summary}`, 2_900) },
      },
      { type: 'section', text: { type: 'mrkdwn', text: truncate(lines.join('\n') || '(no steps)', 2_900) } },
    ],
  };
}

/** A job that has not ended is waiting while one of its steps waits for approval, else running. */
function liveStatus(board: BoardState): string {
  return board.steps.some((step) => step.status === 'waiting') ? '⏸ waiting for approval' : 'running';
}
