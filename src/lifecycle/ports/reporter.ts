import type { ErrorCode } from '../../errors.js';
import type { StepStatus } from './checkpoint-store.js';

/** What the engine tells the outside world; the job layer renders it for Slack or the console. */

export interface StepView {
  readonly id: string;
  readonly title: string;
  readonly target: string;
  readonly commandLine?: string | undefined;
  readonly disruptive: boolean;
  /** A re-run of this job may skip the step once done (Step.carryOver). */
  readonly carryOver?: boolean | undefined;
}

export interface StepFailure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/** A Cilium agent as a rollout reaches it: its node, the revision it left and the one it runs. */
export interface AgentProgress {
  readonly pod: string;
  readonly node: string | undefined;
  /** The node's agent revision before the playbook; undefined when it was not seen. */
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly ready: boolean;
}

export type PlanOutcome = 'succeeded' | 'failed' | 'rejected' | 'expired' | 'cancelled';

export type LifecycleEvent =
  | { readonly type: 'plan-started'; readonly steps: readonly StepView[]; readonly resumed: boolean }
  | { readonly type: 'step-started'; readonly stepId: string }
  | {
      readonly type: 'step-progress';
      readonly stepId: string;
      readonly text: string;
      readonly agent?: AgentProgress | undefined;
    }
  | {
      readonly type: 'step-finished';
      readonly stepId: string;
      readonly status: Exclude<StepStatus, 'running'>;
      readonly durationMs: number;
      readonly summary: string;
      readonly failure?: StepFailure | undefined;
    }
  | {
      readonly type: 'step-waiting';
      readonly stepId: string;
      readonly approvalId: string;
      readonly expiresAt: number;
    }
  | { readonly type: 'note'; readonly stepId?: string | undefined; readonly text: string }
  | {
      readonly type: 'gate-failed';
      readonly stepId: string;
      readonly cluster: string;
      readonly gate: string;
      readonly observed: string;
    }
  | {
      readonly type: 'plan-finished';
      readonly outcome: PlanOutcome;
      readonly summary: string;
      readonly failure?: StepFailure | undefined;
    };

export interface Reporter {
  emit(event: LifecycleEvent): Promise<void>;
  /** One line of a step's raw output; a returned promise is backpressure. */
  output(stepId: string, line: string): void | Promise<void>;
}
