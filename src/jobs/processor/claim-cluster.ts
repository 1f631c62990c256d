import { DelayedError, type Job } from 'bullmq';
import type { ClusterConfig } from '../../config/world-config.js';
import { describeCommand } from '../../lifecycle/command/lifecycle-command.js';
import { isMutating } from '../../lifecycle/verbs/lifecycle-verbs.js';
import type { LeaseHolder } from '../cluster-lease.js';
import type { JobData } from '../create-job-queue.js';
import type { JobRecord } from '../job-record.js';
import { type JobProcessorDeps, LEASE_MS } from './job-processor-deps.js';

const QUEUED_RETRY_MS = 2_000;

/**
 * The first phase of a job: a mutating job runs only while it holds its cluster's lease. One queued
 * behind another (`--queue`) finds the lease taken and comes back shortly as a delayed job, holding
 * no worker slot meanwhile. A job cancelled before it started takes the lease only if it was its own
 * (so its ending releases it), never waits for it: it only has to end.
 * `cancelBy`: who cancelled it, read with its record. Resolves with it; throws BullMQ's DelayedError while it waits its turn.
 */
export async function claimCluster(
  deps: JobProcessorDeps,
  job: Job<JobData>,
  token: string | undefined,
  record: JobRecord,
  cluster: ClusterConfig,
  cancelBy: string | null,
  lease: { readonly holder: LeaseHolder; held: boolean },
): Promise<string | null> {
  // A read-only job never waits in a cluster's line: it has nothing to claim.
  if (!isMutating(record.command)) return cancelBy;
  lease.held = await deps.clusterLeases.acquire(cluster.name, lease.holder, LEASE_MS);
  if (!cancelBy && !lease.held) {
    await job.moveToDelayed(deps.clock.now() + QUEUED_RETRY_MS, token);
    throw new DelayedError();
  }
  const multi = deps.redis.multi().lrem(deps.keys.waiting(cluster.name), 0, record.id);
  // With the outcome entry, it bounds when the job held its cluster: who ran on it when, from the audit alone.
  if (!cancelBy)
    deps.audit.queue(multi, {
      at: deps.clock.now(),
      who: 'cluster-bot',
      action: 'start',
      what: `holds ${cluster.name}: ${describeCommand(record.command)}`,
      cluster: cluster.name,
      jobId: record.id,
    });
  const failed = ((await multi.exec()) ?? []).find(([error]) => error);
  if (failed) throw failed[0];
  return cancelBy;
}
