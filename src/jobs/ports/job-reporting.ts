import type { AccessRefusal } from '../../access/access-policy.js';
import type { Reporter } from '../../lifecycle/ports/reporter.js';
import type { Logger } from '../../log/create-logger.js';
import type { JobRecord } from '../job-record.js';

/**
 * What the worker needs to show a job to people. The job layer decides when; the edge (Slack, the
 * console) decides the words and where they go, so nothing in src/jobs knows about Slack.
 */
export interface JobReporter extends Reporter {
  /**
   * Resolves once everything reported so far is kept (the thread's outbox in Redis): it is sent in
   * the background, by another process if this one dies, so the worker never waits for Slack.
   */
  flush(): Promise<void>;
  /** Resolves once everything reported so far has reached people (before a message that must follow it). */
  delivered(): Promise<void>;
  /** A line in the bot's own words (mentions stay live), never remote text. */
  notice(text: string): Promise<void>;
  /** The job was shown before: a worker is resuming it, not starting it. */
  readonly resumed: boolean;
  /** Why the requester may no longer run the job, in the edge's words (for its notice and the audit). */
  describeRefusal(refusal: AccessRefusal): string;
}

/** The job's full log (the worker's disk and the copy in Redis). */
export interface JobLogSink {
  append(line: string): void | Promise<void>;
}

export type JobReporterFactory = (record: JobRecord, log: JobLogSink, logger: Logger) => Promise<JobReporter>;

/** The scheduled verify's only output: transitions of a gate, for the alerts channel. */
export interface GateAlerts {
  failing(cluster: string, gate: string, observed: string, repeat: boolean): Promise<void>;
  recovered(cluster: string, gate: string): Promise<void>;
  /** A parity field drifted in one place (field, place, value): once when it appears, again at most every verifyAlertRepeat. */
  driftFound(cluster: string, gate: string, observed: string, repeat: boolean): Promise<void>;
  driftCleared(cluster: string, gate: string): Promise<void>;
  /** The hourly reminder while a job (a failed one, or a rollback) has left Flux's cilium HelmRelease suspended. */
  fluxStillSuspended(cluster: string, since: FluxSuspendedSince): Promise<void>;
}

/** Which job left Flux suspended, when it ended, how, and (a rollback) why. */
export interface FluxSuspendedSince {
  readonly jobNumber: number;
  readonly at: number;
  readonly outcome?: string | undefined;
  readonly reason?: string | undefined;
}
