import type { JobRecord } from '../jobs/job-record.js';
import type { StoredApproval } from '../jobs/ports/approval-announcer.js';
import type { FeedEvent, FeedLine } from '../jobs/ports/job-feed.js';
import type { BoardStep } from '../jobs/ports/job-thread.js';
import type { ServiceDeps } from './service-deps.js';

/** Everything a job's page shows but the log: who, what, its steps, its events in time, its approvals. */
export interface JobPage {
  readonly record: JobRecord;
  /** The command in words, as the thread's board names it. */
  readonly title: string;
  readonly steps: readonly BoardStep[];
  readonly events: readonly FeedEvent[];
  readonly approvals: readonly StoredApproval[];
  /** The job's Slack thread (its root message), once posted: the page links back to it. */
  readonly thread?: { readonly channel: string; readonly ts: string } | undefined;
}

export interface JobLogChunk {
  readonly lines: readonly FeedLine[];
  /** No line will follow: the job has ended and its log is complete. */
  readonly ended: boolean;
}

/**
 * A settled job whose worker never marked its log complete (it died after settling) is taken as
 * complete this long after it ended: the page stops waiting for lines that will not come.
 */
const SETTLED_GRACE_MS = 30_000;

/** The page's data of a job still recorded, or undefined (never was, or retired). */
export async function readJobPage(deps: ServiceDeps, jobId: string): Promise<JobPage | undefined> {
  const record = await deps.records.get(jobId);
  if (!record) return undefined;
  const [thread, events, stored] = await Promise.all([
    deps.threads.load(record),
    deps.feed.events(jobId),
    deps.approvals.read(jobId),
  ]);
  const approvals = stored.map((entry) => entry.stored);
  return {
    record,
    title: thread.board.title,
    steps: thread.board.steps,
    events,
    approvals,
    thread: thread.threadTs ? { channel: thread.channel, ts: thread.threadTs } : undefined,
  };
}

/** The next lines of a job's log after the stream id `after`; undefined when there is no such job. */
export async function readJobLog(
  deps: ServiceDeps,
  jobId: string,
  after: string,
  count: number,
): Promise<JobLogChunk | undefined> {
  const chunk = await deps.feed.lines(jobId, after, count);
  if (chunk.lines.length > 0 || chunk.ended) return chunk;
  const record = await deps.records.get(jobId);
  if (!record) return undefined;
  const lapsed = record.finishedAt !== undefined && deps.clock.now() - record.finishedAt > SETTLED_GRACE_MS;
  return { lines: [], ended: lapsed };
}
