import type { Job } from 'bullmq';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import { loadJobFacts } from '../lifecycle/engine/job-facts.js';
import { STALE_DETACHED_MINUTES } from '../lifecycle/engine/prune-detached-folders.js';
import { runPlan } from '../lifecycle/engine/run-plan.js';
import type { LifecycleEvent } from '../lifecycle/ports/reporter.js';
import { buildPlan } from '../lifecycle/verbs/build-plan.js';
import { NO_TRACING } from '../tracing/job-tracing.js';
import type { JobData } from './create-job-queue.js';
import type { JobRecord } from './job-record.js';
import { claimCluster } from './processor/claim-cluster.js';
import { createLogPruner } from './processor/create-log-pruner.js';
import { createRunLease } from './processor/create-run-lease.js';
import type { JobProcessorDeps } from './processor/job-processor-deps.js';
import { noteEarlierFluxSuspension } from './processor/note-earlier-flux-suspension.js';
import { openRun } from './processor/open-run.js';
import { parkForApproval } from './processor/park-for-approval.js';
import { readRerunSource } from './processor/read-rerun-source.js';
import { refuseAtStart } from './processor/refuse-at-start.js';
import { traceRemoteShell } from './processor/trace-remote-shell.js';
import { createRedisCheckpointStore } from './redis-checkpoint-store.js';
import { remindFluxSuspended } from './remind-flux-suspended.js';
import { runScheduledDrift } from './run-scheduled-drift.js';
import { runScheduledVerify } from './run-scheduled-verify.js';

export type { JobProcessorDeps } from './processor/job-processor-deps.js';

/**
 * The BullMQ processor: one engine run per entry, in named phases. A mutating job first claims its
 * cluster's lease (a queued job waits its turn), then opens the run (access re-checked, thread,
 * approvals, cancel watch). The engine's plan-finished settles the job in one write; while an
 * approval is pending the job parks as a delayed job (no worker slot held) until its expiry, and a
 * decision or a cancel promotes it early.
 */
export function createJobProcessor(deps: JobProcessorDeps) {
  const pruneLogs = createLogPruner(deps);
  const { batch } = deps;
  return async (job: Job<JobData>, token: string | undefined, signal?: AbortSignal): Promise<string> => {
    if ('scheduledVerify' in job.data) return runScheduledVerify(job.data.scheduledVerify, deps);
    if ('scheduledDrift' in job.data) return runScheduledDrift(job.data.scheduledDrift, deps);
    if ('fluxReminder' in job.data) return remindFluxSuspended(job.data.fluxReminder, deps);
    const { jobId } = job.data;
    // The record, a cancel requested meanwhile and the checkpoints (of a resumed job): one round trip.
    const checkpoints = createRedisCheckpointStore(deps.keys, jobId, batch);
    const [[[raw, cancelled]]] = (await Promise.all([
      batch.send((pipeline) => pipeline.mget(deps.keys.job(jobId), deps.keys.cancel(jobId))),
      checkpoints.load(),
    ])) as [[[string | null, string | null]], unknown];
    if (!raw) throw new Error(`job ${jobId} has no record`);
    const record = JSON.parse(raw) as JobRecord;
    const cluster = deps.world.clusters[record.command.cluster]!;
    const lease = createRunLease(jobId);
    const cancelBy = await claimCluster(deps, job, token, record, cluster, cancelled, lease);
    if (lease.held)
      checkpoints.fenceBy({
        ...deps.clusterLeases.fence(cluster.name, lease.holder),
        lose: () => lease.lose(),
      });
    const run = await openRun(deps, record, cluster, {
      cancelBy,
      signal,
      attempt: job.attemptsMade,
      pruneLogs,
      batch,
      checkpoints,
      lease,
    });
    const trace = (deps.tracing ?? NO_TRACING).startRun({
      jobId: record.id,
      number: record.number,
      command: describeCommand(record.command),
      cluster: cluster.name,
      attempt: job.attemptsMade,
    });
    let ending = 'stopped';
    // The run's own SSH connections: one per host, closed when the run ends however it ends.
    const shell = deps.openShell(record.id);
    try {
      if (run.denied) return await refuseAtStart(deps, run, run.denied);
      await noteEarlierFluxSuspension(deps, record, await loadJobFacts(checkpoints));
      const result = await runPlan(buildPlan(record.command, deps.world), {
        jobId: record.id,
        folderTag: record.folderTag,
        recordedAt: record.createdAt,
        world: deps.world,
        shell: traceRemoteShell(shell, trace, deps.redact),
        kube: deps.kubeFor(cluster.name),
        kubeconfigs: deps.kubeconfigs,
        hostKeyPins: deps.hostKeyPins,
        clock: deps.clock,
        checkpoints,
        approvals: run.approvals,
        reporter: {
          ...run.reporter,
          emit(event: LifecycleEvent) {
            trace.event(event);
            return run.reporter.emit(event);
          },
        },
        signal: run.signal,
        redact: deps.redact,
        pruneDetachedOlderThanMinutes: STALE_DETACHED_MINUTES,
        log: run.logger,
        rerunOf: record.rerunOf && (await readRerunSource(deps, record.rerunOf)),
      });
      // Taken over meanwhile: the start that holds the lease now reports and settles the job.
      lease.throwIfLost();
      // Kept in the thread's outbox: sent in the background, the worker slot is free once the outcome is settled.
      await run.reporter.flush();
      ending = result.status === 'waiting' ? 'waiting' : result.outcome;
      if (result.status === 'waiting') {
        // The approvers read the thread: it shows the step waiting before the job parks.
        await run.reporter.delivered();
        return await parkForApproval(deps, job, token, run, result);
      }
      // The record, approvals and lease were settled when the engine reported plan-finished.
      run.logger.info({ outcome: result.outcome }, result.summary);
      return result.outcome;
    } finally {
      trace.end(ending);
      await shell.close();
      await run.close();
    }
  };
}
