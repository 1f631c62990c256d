import type { PlanOutcome, StepView } from '../lifecycle/ports/reporter.js';

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
  readonly steps: readonly BoardStep[];
  readonly outcome?: PlanOutcome | undefined;
  readonly summary?: string | undefined;
}
