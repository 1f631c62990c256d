import type { LifecycleEvent } from '../../lifecycle/ports/reporter.js';

/** One lifecycle event of a job as its page's timeline reads it: the event and when the worker saw it. */
export interface FeedEvent {
  /** The event's stream id (ms-seq). */
  readonly id: string;
  readonly at: number;
  readonly event: LifecycleEvent;
}

/** One redacted line of a job's log; `id` is its stream id, the page's SSE event id. */
export interface FeedLine {
  readonly id: string;
  readonly text: string;
  /** Set on a mark, not a line (`text` is empty): the step whose output begins after it. */
  readonly stepStarts?: string;
}

/**
 * What the worker writes for the job page, beside the Slack thread: every line of the log (already
 * redacted, the same lines the thread's upload carries) and every lifecycle event. Writes are
 * batched; a returned promise is backpressure.
 */
export interface JobFeed {
  line(text: string): void | Promise<void>;
  event(event: LifecycleEvent): void;
  /** The log is complete: a page streaming it may stop. */
  end(): void;
  /** Resolves once everything written so far is stored. */
  flush(): Promise<void>;
}
