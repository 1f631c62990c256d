import { describeEvent } from '../../src/lifecycle/describe-event.js';
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
    texts: () => events.map(describeEvent),
  };
}
