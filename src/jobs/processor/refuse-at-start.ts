import { describeCommand } from '../../lifecycle/command/lifecycle-command.js';
import type { JobProcessorDeps } from './job-processor-deps.js';
import type { JobRun } from './open-run.js';

/**
 * A requester the access re-check at start turned away: nothing runs, the audit trail says why,
 * and the thread (posted now if this is the job's first start) ends with the reason.
 */
export async function refuseAtStart(deps: JobProcessorDeps, run: JobRun, reason: string): Promise<string> {
  const { record, reporter, thread } = run;
  run.logger.warn({ reason }, 'job refused at start');
  await deps.audit.record({
    at: deps.clock.now(),
    who: record.requestedBy,
    action: 'refused',
    what: `${describeCommand(record.command)}: ${reason}`,
    cluster: record.command.cluster,
    jobId: record.id,
  });
  // The reason is the bot's own words with live mentions and channel links, so it goes as a
  // notice: a summary is shown as text, escaped like anything remote.
  await reporter.emit({ type: 'plan-started', resumed: thread.resumed, steps: [] });
  await thread.notice(`⛔ ${reason}`);
  await reporter.emit({
    type: 'plan-finished',
    outcome: 'cancelled',
    summary: 'refused when the job started',
  });
  await reporter.flush();
  return 'cancelled';
}
