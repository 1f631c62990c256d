import type { FeedEvent, FeedLine } from '../../jobs/ports/job-feed.js';

/** The job page's log and events, as the workers wrote them. */
export interface JobFeedReader {
  /** Up to `count` lines after the line `after` ('0' for the first); `ended` once the log is complete. */
  lines(jobId: string, after: string, count: number): Promise<{ lines: FeedLine[]; ended: boolean }>;
  events(jobId: string): Promise<FeedEvent[]>;
}
