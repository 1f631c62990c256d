import { formatDuration } from '../config/parse-duration.js';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import type { JobProgress, JobRecord, JobSummary } from '../service/index.js';
import type { Marks } from './marks.js';

/** "job #12 (cilium dev) by @U0ALICE, step 3/7": how other messages refer to a job. */
export function describeJob(job: JobSummary, marks: Marks): string {
  if (!job.record || !job.progress) return `job ${job.id}`;
  return `${jobTitle(job.record, marks)}, ${describeProgress(job.progress)}`;
}

export function jobTitle(record: JobRecord, marks: Marks): string {
  return `job #${record.number} (${marks.text(describeCommand(record.command))}) by ${marks.user(record.requestedBy)}`;
}

/** A job in a list: "• job #12 (cilium dev) by @U0ALICE: step 3/7". */
export function describeJobLine(job: JobSummary, marks: Marks): string {
  if (!job.record || !job.progress) return `• job ${job.id}`;
  return `• ${jobTitle(job.record, marks)}: ${describeProgress(job.progress)}`;
}

export function describeProgress(progress: JobProgress): string {
  switch (progress.kind) {
    case 'ended':
      return `${progress.outcome}${progress.tookMs === undefined ? '' : ` in ${formatDuration(progress.tookMs)}`}`;
    case 'queued':
      return 'queued';
    case 'step':
      return `step ${progress.index}/${progress.of}${progress.waiting ? ' (waiting for approval)' : ''}`;
  }
}
