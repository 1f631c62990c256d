/** Durable record of what a job has done, so a resumed job continues instead of redoing side effects. */

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

export interface StepRecord {
  readonly status: StepStatus;
  readonly startedAt?: number | undefined;
  readonly finishedAt?: number | undefined;
  readonly summary?: string | undefined;
  /** Small, JSON-safe facts a step keeps between attempts (a pinned host key, a seen commit). */
  readonly data?: Readonly<Record<string, unknown>> | undefined;
}

export interface CheckpointStore {
  get(stepId: string): Promise<StepRecord | undefined>;
  set(stepId: string, record: StepRecord): Promise<void>;
}
