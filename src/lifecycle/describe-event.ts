import type { LifecycleEvent } from './ports/reporter.js';

/** One line of plain text per lifecycle event: the job log's wording, and the tests'. */
export function describeEvent(event: LifecycleEvent): string {
  switch (event.type) {
    case 'step-started':
      return `${event.stepId} started`;
    case 'step-finished':
      return `${event.stepId} ${event.status}: ${event.summary}`;
    case 'step-progress':
    case 'note':
      return `${event.stepId ?? ''} ${event.text}`;
    case 'gate-failed':
      return `gate failed: ${event.gate}: ${event.observed}`;
    case 'plan-finished':
      return `job ${event.outcome}: ${event.summary}`;
    case 'step-waiting':
      return `${event.stepId} waiting for approval ${event.approvalId}`;
    default:
      return event.type;
  }
}
