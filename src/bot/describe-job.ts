import { formatDuration } from '../config/parse-duration.js';
import type { JobRecord, JobRecords } from '../jobs/job-record.js';
import type { createThreadStore } from '../jobs/thread-store.js';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

type ThreadStore = ReturnType<typeof createThreadStore>;

/** "job #12 (cilium dev) by <@U0ALICE>, step 3/7": how other messages refer to a job. */
export async function describeJob(jobId: string, records: JobRecords, threads: ThreadStore): Promise<string> {
  const record = await records.get(jobId);
  if (!record) return `job ${jobId}`;
  return `${jobTitle(record)}, ${await jobProgress(record, threads)}`;
}

export function jobTitle(record: JobRecord): string {
  return `job #${record.number} (${escapeMrkdwn(describeCommand(record.command))}) by <@${record.requestedBy}>`;
}

export async function jobProgress(record: JobRecord, threads: ThreadStore): Promise<string> {
  if (record.outcome) {
    const took = record.finishedAt ? ` in ${formatDuration(record.finishedAt - record.createdAt)}` : '';
    return `${record.outcome}${took}`;
  }
  const { steps } = (await threads.load(record)).board;
  if (steps.length === 0) return 'queued';
  const current = steps.findIndex((step) => step.status !== 'succeeded' && step.status !== 'skipped');
  const index = current < 0 ? steps.length : current + 1;
  const waiting = steps[current]?.status === 'waiting' ? ' (waiting for approval)' : '';
  return `step ${index}/${steps.length}${waiting}`;
}
