import { DelayedError, type Job } from 'bullmq';
import type { JobData } from '../create-job-queue.js';
import { cancelledBy } from '../request-cancel.js';
import { type JobProcessorDeps, LEASE_MS } from './job-processor-deps.js';
import type { JobRun } from './open-run.js';

/**
 * Waiting for people holds no worker slot: the job parks as a delayed job until its approval
 * expires (waking for the reminders on the way), and its lease covers the wait, so the cluster stays its own. A decision or a cancel
 * promotes it early; one that landed before the job parked found nothing to promote, so it looks
 * once more after parking. Always ends in BullMQ's DelayedError (the job is not finished).
 */
export async function parkForApproval(
  deps: JobProcessorDeps,
  job: Job<JobData>,
  token: string | undefined,
  run: JobRun,
  waiting: { readonly stepId: string; readonly until: number },
): Promise<never> {
  const { record, cluster } = run;
  run.logger.info({ stepId: waiting.stepId, until: waiting.until }, 'waiting for approval');
  // The same start keeps it across the park; the one after it (a new run of the job) takes it over.
  if (
    run.mutating &&
    !(await deps.clusterLeases.renew(
      cluster.name,
      run.lease.holder,
      waiting.until - deps.clock.now() + LEASE_MS,
    ))
  )
    throw run.lease.lose();
  // It wakes for each reminder too; the approval gate then finds the request pending and parks again.
  const wakeAt = Math.min(waiting.until, (await run.approvals.remind(waiting.stepId)) ?? waiting.until);
  await job.moveToDelayed(wakeAt, token);
  run.parked = true;
  const decided = (await run.approvals.state(waiting.stepId)).status !== 'pending';
  if (decided || (await cancelledBy(deps.redis, deps.keys, record.id))) await job.promote();
  throw new DelayedError();
}
