import type { PlanOutcome, StepView } from '../../lifecycle/ports/reporter.js';
import type { JobRecord, JobRef } from '../job-record.js';

export type BoardStepStatus = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped';

export interface BoardStep extends StepView {
  readonly status: BoardStepStatus;
  readonly durationMs?: number | undefined;
  readonly detail?: string | undefined;
}

/** A job's status board: what the root message of its thread shows, kept in Redis between runs. */
export interface BoardState {
  readonly title: string;
  readonly jobNumber: number;
  readonly requestedBy: string;
  /** The job's page nonce (its record's): the board's page link is signed over it. */
  readonly pageNonce?: string | undefined;
  readonly steps: readonly BoardStep[];
  readonly outcome?: PlanOutcome | undefined;
  readonly summary?: string | undefined;
  /** The failed job this one re-runs: the board names it and links its thread. */
  readonly rerunOf?: JobRef | undefined;
}

/** A job's Slack thread as the worker keeps it in Redis: where it is and what its board shows. */
export interface JobThread {
  readonly jobId: string;
  readonly channel: string;
  readonly alertsChannel: string;
  readonly cluster: string;
  /** The thread's root message, once sent (written by the outbox's sender, read back on load). */
  threadTs: string | undefined;
  /** The root message is in the outbox (or sent): what comes later goes under it. */
  opened: boolean;
  board: BoardState;
  /**
   * Whether a Cilium agent reached a revision other than the one its node ran before (the rollout
   * changed something); undefined while no agent has reported.
   */
  agentsMoved?: boolean | undefined;
}

/** Where a job's thread state is kept between workers (Redis in production). */
export interface ThreadStore {
  /** The saved thread, or a new one (no root message yet) for a job never shown. */
  load(record: JobRecord): Promise<JobThread>;
}
