import { formatDuration } from '../../config/parse-duration.js';
import type { JobThread } from '../../jobs/ports/job-thread.js';
import type { LifecycleEvent } from '../../lifecycle/ports/reporter.js';
import { truncate } from '../../wording/truncate.js';
import { escapeMrkdwn } from '../escape-mrkdwn.js';

type Event<T extends LifecycleEvent['type']> = Extract<LifecycleEvent, { type: T }>;

// Everything an event carries is remote or config text: escaped. Only the bot's own words are mrkdwn.
const plain = (text: string, max: number) => escapeMrkdwn(truncate(text, max));

export function stepTitle(thread: JobThread, stepId: string): string {
  return escapeMrkdwn(thread.board.steps.find((step) => step.id === stepId)?.title ?? stepId);
}

/** The reply a finished step gets; a skipped step gets none (the board shows it). */
export function stepFinishedText(thread: JobThread, event: Event<'step-finished'>): string | undefined {
  const took = formatDuration(event.durationMs);
  if (event.status === 'succeeded')
    return `✅ ${stepTitle(thread, event.stepId)} (${took}): ${plain(event.summary, 2_500)}`;
  if (event.status === 'failed')
    return `❌ ${stepTitle(thread, event.stepId)} failed after ${took}: ${plain(event.summary, 2_500)}`;
  return undefined;
}

export function noteText(event: Event<'note'>): string {
  return `ℹ️ ${plain(event.text, 2_800)}`;
}

export function gateAlertText(
  job: { readonly cluster: string; readonly jobNumber: number },
  failed: { readonly gate: string; readonly observed: string },
  link: string | undefined,
): string {
  const where = link ? `\n<${link}|job #${job.jobNumber} thread>` : '';
  return `🚨 ${escapeMrkdwn(job.cluster)}: gate *${escapeMrkdwn(failed.gate)}* failed: ${plain(failed.observed, 2_000)}${where}`;
}

export function outcomeText(thread: JobThread, event: Event<'plan-finished'>): string {
  const mark = event.outcome === 'succeeded' ? '✅' : '❌';
  return `${mark} job #${thread.board.jobNumber} ${event.outcome}: ${plain(event.summary, 2_800)}`;
}
