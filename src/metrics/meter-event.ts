import type { LifecycleEvent } from '../lifecycle/ports/reporter.js';
import type { Metrics } from './create-metrics.js';

/** Counts what a lifecycle event says: step durations, gate failures, job outcomes. */
export function meterEvent(metrics: Metrics, command: string, cluster: string, event: LifecycleEvent): void {
  switch (event.type) {
    case 'step-finished':
      if (event.status !== 'skipped') {
        metrics.stepDuration.observe(
          { step: event.stepId.replace(/^\d+-/, ''), status: event.status },
          event.durationMs / 1_000,
        );
      }
      break;
    case 'gate-failed':
      metrics.gateFailures.inc({ cluster, gate: event.gate });
      break;
    case 'plan-finished':
      metrics.jobs.inc({ command, outcome: event.outcome });
      break;
    default:
      break;
  }
}
