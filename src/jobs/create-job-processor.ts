import { DelayedError, type Job } from 'bullmq';
import { type GroupMembers, refuseAccess } from '../access/access-policy.js';
import { describeCommand, isMutating } from '../lifecycle/command/lifecycle-command.js';
import { runPlan } from '../lifecycle/engine/run-plan.js';
import { buildPlan } from '../lifecycle/plans/build-plan.js';
import type { KubeconfigKeeper } from '../lifecycle/ports/kubeconfig-keeper.js';
import { meterEvent } from '../metrics/meter-event.js';
import type { AuditLog } from './audit-log.js';
import type { ClusterLock } from './cluster-lock.js';
import type { JobData } from './create-job-queue.js';
import { createRedisApprovalDesk } from './create-redis-approval-desk.js';
import { openJobLog } from './job-log.js';
import type { JobRecords } from './job-record.js';
import type { ApprovalAnnouncer } from './ports/approval-announcer.js';
import type { JobReporter, JobReporterFactory } from './ports/job-reporting.js';
import { pruneJobLogs } from './prune-job-logs.js';
import { createRedisCheckpointStore } from './redis-checkpoint-store.js';
import { cancelledBy } from './request-cancel.js';
import { retireJob } from './retire-job.js';
import { runScheduledVerify, type ScheduledVerifyDeps } from './run-scheduled-verify.js';

/** What the processor needs beyond what a scheduled verify needs (world, Redis, Slack, SSH, Kubernetes, clock, logs). */
export interface JobProcessorDeps extends ScheduledVerifyDeps {
  readonly records: JobRecords;
  readonly lock: ClusterLock;
  readonly audit: AuditLog;
  readonly announcer: ApprovalAnnouncer;
  /** Shows one job to people (its Slack thread); built by the edge, so this layer knows no Slack. */
  readonly reporterFor: JobReporterFactory;
  /** Keeps a kubeconfig fetched after k3s.yml, for the cluster's gateway to use from then on. */
  readonly kubeconfigs: KubeconfigKeeper;
  /** Resolves user groups, to check the requester again when the job starts. */
  readonly members: GroupMembers;
  readonly dataDir: string;
  /** How long a finished job's Redis keys and log file are kept. */
  readonly retentionMs: number;
  /** The job logs under dataDir are pruned, oldest first, to stay within this total. */
  readonly logsMaxBytes: number;
  /** How often a running job checks whether someone cancelled it. */
  readonly cancelPollMs?: number;
}

/** A running job's lease; renewed well within it, so only a dead worker lets it lapse. */
const LEASE_MS = 60_000;
const QUEUED_RETRY_MS = 2_000;
/** Pruning lists the log folder: once a minute per worker is plenty. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The BullMQ processor: one engine run per entry. A mutating job first holds its cluster's lease
 * (a queued job waits its turn). While an approval is pending the job parks as a delayed job (no
 * worker slot held) until its expiry; a decision or a cancel promotes it early.
 */
export function createJobProcessor(deps: JobProcessorDeps) {
  let prunedAt = Number.NEGATIVE_INFINITY;
  const pruneLogs = async () => {
    if (deps.clock.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = deps.clock.now();
    const removed = await pruneJobLogs(deps.dataDir, {
      maxAgeMs: deps.retentionMs,
      maxBytes: deps.logsMaxBytes,
      now: deps.clock.now,
      isRunning: async (jobId) => {
        const record = await deps.records.get(jobId);
        return record !== undefined && record.outcome === undefined;
      },
    }).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'pruning job logs failed');
      return [];
    });
    if (removed.length > 0) deps.logger.info({ removed: removed.length }, 'old job logs pruned');
  };
  return async (job: Job<JobData>, token: string | undefined, signal?: AbortSignal): Promise<string> => {
    if ('scheduledVerify' in job.data) return runScheduledVerify(job.data.scheduledVerify, deps);
    const record = await deps.records.get(job.data.jobId);
    if (!record) throw new Error(`job ${job.data.jobId} has no record`);
    const cluster = deps.world.clusters[record.command.cluster]!;
    const logger = deps.logger.child({ jobId: record.id, cluster: cluster.name, user: record.requestedBy });
    const mutating = isMutating(record.command);
    const cancelBy = await cancelledBy(deps.redis, deps.keys, record.id);

    if (mutating && !cancelBy && !(await deps.lock.acquire(cluster.name, record.id, LEASE_MS))) {
      await job.moveToDelayed(deps.clock.now() + QUEUED_RETRY_MS, token);
      throw new DelayedError();
    }
    await deps.redis.lrem(deps.keys.waiting(cluster.name), 0, record.id);
    logger.info({ attempt: job.attemptsMade, pid: process.pid }, 'job started');
    // Checked again each time a worker takes the job up: the config may have changed since the
    // command was accepted (this worker may run another version of it), and so may group membership.
    const denied = cancelBy
      ? undefined
      : await refuseAccess(
          deps.world,
          deps.members,
          { userId: record.requestedBy, channelId: record.channel },
          cluster,
        );

    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    await pruneLogs();
    const log = await openJobLog(deps.dataDir, record.id);
    const threadReporter = await deps.reporterFor(record, log, logger);
    const approvals = createRedisApprovalDesk(
      deps.redis,
      deps.keys,
      record.id,
      cluster.approvalTimeoutMs,
      deps.clock.now,
      {
        ...deps.announcer,
        // The request goes into the job's thread: its root message must be out (and saved) first.
        async announce(...request) {
          await threadReporter.flush();
          return deps.announcer.announce(...request);
        },
      },
    );
    // A job has ended once the engine says so: its record, approvals and lease settle before the
    // (possibly rate-limited) final Slack report, so nobody sees "cancelled" and then "busy".
    let finished = false;
    const settle = async (outcome: string, summary: string) => {
      finished = true;
      await approvals.closePending(`job ${outcome}`);
      await deps.records.update(record.id, { outcome, finishedAt: deps.clock.now() });
      if (record.command.verb === 'verify') {
        await deps.redis.set(
          deps.keys.lastVerify(cluster.name),
          JSON.stringify({ outcome, at: deps.clock.now(), jobNumber: record.number, summary }),
        );
      }
      if (mutating) await deps.lock.release(cluster.name, record.id);
      await retireJob(deps.redis, deps.keys, record.id, deps.retentionMs);
      await deps.audit.record({
        at: deps.clock.now(),
        who: 'cluster-bot',
        action: 'outcome',
        what: `${outcome}: ${summary}`,
        jobId: record.id,
      });
    };
    const reporter: JobReporter = {
      ...threadReporter,
      async emit(event) {
        meterEvent(deps.metrics, record.command.verb, cluster.name, event);
        // Step boundaries in the JSON logs let an operator (and the benchmark) time a job without Slack.
        if (event.type === 'step-started') logger.info({ stepId: event.stepId }, 'step started');
        if (event.type === 'plan-finished') await settle(event.outcome, event.summary);
        await threadReporter.emit(event);
      },
    };
    const announceCancel = async (by: string) => {
      await threadReporter.notice(`🛑 cancelled by <@${by}>`);
      controller.abort(new Error(`cancelled by ${by}`));
    };
    if (cancelBy) await announceCancel(cancelBy);
    const watchers = [
      setInterval(() => {
        void cancelledBy(deps.redis, deps.keys, record.id).then(async (by) => {
          if (by && !controller.signal.aborted) await announceCancel(by);
        });
      }, deps.cancelPollMs ?? 1_000),
      setInterval(() => {
        if (mutating) void deps.lock.renew(cluster.name, record.id, LEASE_MS);
      }, LEASE_MS / 3),
    ];
    const refuse = async (reason: string) => {
      logger.warn({ reason }, 'job refused at start');
      await deps.audit.record({
        at: deps.clock.now(),
        who: record.requestedBy,
        action: 'refused',
        what: `${describeCommand(record.command)}: ${reason}`,
        jobId: record.id,
      });
      // The thread (posted now if this is the job's first start) ends with the reason. It is the
      // bot's own words with live mentions and channel links, so it goes as a notice: a summary is
      // shown as text, escaped like anything remote.
      await reporter.emit({ type: 'plan-started', resumed: threadReporter.resumed, steps: [] });
      await threadReporter.notice(`⛔ ${reason}`);
      await reporter.emit({
        type: 'plan-finished',
        outcome: 'cancelled',
        summary: 'refused when the job started',
      });
      await reporter.flush();
      return 'cancelled';
    };
    let parked = false;
    try {
      if (denied) return await refuse(denied);
      const result = await runPlan(buildPlan(record.command, deps.world), {
        jobId: record.id,
        world: deps.world,
        shell: deps.shell,
        kube: deps.kubeFor(cluster.name),
        kubeconfigs: deps.kubeconfigs,
        clock: deps.clock,
        checkpoints: createRedisCheckpointStore(deps.redis, deps.keys, record.id),
        approvals,
        reporter,
        signal: controller.signal,
        redact: deps.redact,
      });
      await reporter.flush();
      if (result.status === 'waiting') {
        logger.info({ stepId: result.stepId, until: result.until }, 'waiting for approval');
        // The lease covers the wait: the job keeps its cluster while nobody holds a worker for it.
        if (mutating)
          await deps.lock.renew(cluster.name, record.id, result.until - deps.clock.now() + LEASE_MS);
        await job.moveToDelayed(result.until, token);
        parked = true;
        // A decision that landed before the job parked found nothing to promote: look once more.
        const decided = (await approvals.state(result.stepId)).status !== 'pending';
        if (decided || (await cancelledBy(deps.redis, deps.keys, record.id))) await job.promote();
        throw new DelayedError();
      }
      // The record, approvals and lease were settled when the engine reported plan-finished.
      logger.info({ outcome: result.outcome }, result.summary);
      return result.outcome;
    } finally {
      // A finished job's keys first written after it settled (the thread's, if its root message
      // was late) get the retention too.
      if (finished) await retireJob(deps.redis, deps.keys, record.id, deps.retentionMs);
      for (const watcher of watchers) clearInterval(watcher);
      // Also on a crash of the processor itself: a job that is not parked holds nothing.
      if (mutating && !parked) await deps.lock.release(cluster.name, record.id);
      await log.close();
    }
  };
}
