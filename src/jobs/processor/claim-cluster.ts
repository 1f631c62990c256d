import { DelayedError, type Job } from 'bullmq';
import type { ClusterConfig } from '../../config/world-config.js';
import { describeCommand, isMutating } from '../../lifecycle/command/lifecycle-command.js';
import type { JobData } from '../create-job-queue.js';
import type { JobRecord } from '../job-record.js';
import { cancelledBy } from '../request-cancel.js';
import { type JobProcessorDeps, LEASE_MS } from './job-processor-deps.js';

const QUEUED_RETRY_MS = 2_000;

/**
 * The first phase of a job: a mutating job runs only while it holds its cluster's lease. One queued
 * behind another (`--queue`) finds the lease taken and comes back shortly as a delayed job, holding
 * no worker slot meanwhile. A job cancelled before it started takes no lease: it only has to end.
 * Resolves with who cancelled it, if anyone did; throws BullMQ's DelayedError while it waits its turn.
 */
export async function claimCluster(
  deps: JobProcessorDeps,
  job: Job<JobData>,
  token: string | undefined,
  record: JobRecord,
  cluster: ClusterConfig,
): Promise<string | null> {
  const cancelBy = await cancelledBy(deps.redis, deps.keys, record.id);
  const claims = isMutating(record.command) && !cancelBy;
  if (claims && !(await deps.lock.acquire(cluster.name, record.id, LEASE_MS))) {
    await job.moveToDelayed(deps.clock.now() + QUEUED_RETRY_MS, token);
    throw new DelayedError();
  }
  await deps.redis.lrem(deps.keys.waiting(cluster.name), 0, record.id);
  // With the outcome entry, it bounds when the job held its cluster: who ran on it when, from the audit alone.
  if (claims)
    await deps.audit.record({
      at: deps.clock.now(),
      who: 'cluster-bot',
      action: 'start',
      what: `holds ${cluster.name}: ${describeCommand(record.command)}`,
      jobId: record.id,
    });
  return cancelBy;
}
