import { describeEvent } from '../../src/lifecycle/describe-event.js';
import type { LifecycleEvent, Reporter, StepFailure } from '../../src/lifecycle/ports/reporter.js';

type StepFinished = Extract<LifecycleEvent, { type: 'step-finished' }>;
type PlanFinished = Extract<LifecycleEvent, { type: 'plan-finished' }>;

export function createRecordingReporter(): Reporter & {
  events: LifecycleEvent[];
  lines: string[];
  /** The output lines of one step, in order. */
  linesOf(stepId: string): string[];
  texts(): string[];
  /** Every step-finished event, in order. */
  finishedSteps(): StepFinished[];
  /** The first step that failed, with its failure. */
  failedStep(): StepFinished | undefined;
  /** The failure the plan finished with. */
  planFailure(): StepFailure | undefined;
} {
  const events: LifecycleEvent[] = [];
  const lines: string[] = [];
  const stepOfLine: string[] = [];
  const finishedSteps = () => events.filter((event): event is StepFinished => event.type === 'step-finished');
  return {
    events,
    lines,
    async emit(event) {
      events.push(event);
    },
    output(stepId, line) {
      lines.push(line);
      stepOfLine.push(stepId);
    },
    linesOf: (stepId) => lines.filter((_line, index) => stepOfLine[index] === stepId),
    texts: () => events.map(describeEvent),
    finishedSteps,
    failedStep: () => finishedSteps().find((event) => event.status === 'failed'),
    planFailure: () => events.find((event): event is PlanFinished => event.type === 'plan-finished')?.failure,
  };
}
