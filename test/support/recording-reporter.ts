import type { LifecycleEvent, Reporter } from '../../src/lifecycle/ports/reporter.js';

export function createRecordingReporter(): Reporter & {
  events: LifecycleEvent[];
  lines: string[];
  texts(): string[];
} {
  const events: LifecycleEvent[] = [];
  const lines: string[] = [];
  return {
    events,
    lines,
    async emit(event) {
      events.push(event);
    },
    output(_stepId, line) {
      lines.push(line);
    },
    texts: () =>
      events.map((event) => {
        switch (event.type) {
          case 'step-finished':
            return `${event.stepId} ${event.status}: ${event.summary}`;
          case 'step-progress':
          case 'note':
            return `${event.stepId ?? ''} ${event.text}`;
          case 'gate-failed':
            return `ALERT ${event.gate}: ${event.observed}`;
          case 'plan-finished':
            return `PLAN ${event.outcome}: ${event.summary}`;
          default:
            return event.type;
        }
      }),
  };
}
