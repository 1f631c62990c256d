import { checkAccess } from '../../access/access-policy.js';
import type { ClusterConfig } from '../../config/world-config.js';
import type { CheckpointStore } from '../../lifecycle/ports/checkpoint-store.js';
import { isMutating } from '../../lifecycle/verbs/lifecycle-verbs.js';
import type { Logger } from '../../log/create-logger.js';
import { meterEvent } from '../../metrics/meter-event.js';
import type { CommandBatch } from '../command-batch.js';
import { createRedisApprovalDesk, type RedisApprovalDesk } from '../create-redis-approval-desk.js';
import { createRedisJobFeed } from '../create-redis-job-feed.js';
import { openJobLog } from '../job-log.js';
import type { JobRecord } from '../job-record.js';
import type { JobFeed } from '../ports/job-feed.js';
import type { JobLogSink, JobReporter } from '../ports/job-reporting.js';
import { queueRetireJob } from '../retire-job.js';
import type { RunLease } from './create-run-lease.js';
import type { JobProcessorDeps } from './job-processor-deps.js';
import { settleJob } from './settle-job.js';
import { watchRun } from './watch-run.js';

/** One start of a job by this worker: what its phases share, and how it ends. */
export interface JobRun {
  readonly record: JobRecord;
  readonly cluster: ClusterConfig;
  readonly mutating: boolean;
  readonly logger: Logger;
  /** Why the requester may no longer run this (checked at each start); undefined when they may. */
  readonly denied: string | undefined;
  /** Its hold on the cluster's lease (a mutating job's). */
  readonly lease: RunLease;
  /** Aborts on a cancel, when the worker shuts down, or when the lease is lost (work on the hosts goes on, unfollowed). */
  readonly signal: AbortSignal;
  /** The job's thread as the edge shows it. */
  readonly thread: JobReporter;
  /** What the engine reports to: the thread, plus metrics, step logs and the settling at the end. */
  readonly reporter: JobReporter;
  readonly approvals: RedisApprovalDesk;
  /** The job's checkpoints (and the facts its steps keep): the engine's, and what settling reads back. */
  readonly checkpoints: CheckpointStore;
  /** Settled: the record has its outcome. */
  finished: boolean;
  /** Moved to delayed for an approval: it keeps its lease while nobody holds a worker for it. */
  parked: boolean;
  /** Stops the watchers and lets go of what a run that is not parked holds. */
  close(): Promise<void>;
}

export interface RunStart {
  readonly cancelBy: string | null;
  readonly attempt: number;
  /** The worker's own signal: it aborts on shutdown. */
  readonly signal: AbortSignal | undefined;
  readonly pruneLogs: () => Promise<void>;
  /** The worker's commands that leave together (a step's checkpoint and its page event). */
  readonly batch: CommandBatch;
  /** The job's checkpoints, their read already started with the job's record. */
  readonly checkpoints: CheckpointStore;
  readonly lease: RunLease;
}

/**
 * The second phase: everything a job needs around the engine. The requester's access is checked
 * again (the config may have changed since the command was accepted, this worker may run another
 * version of it, and group membership may have changed); its log, thread and approval desk open; a
 * cancel is watched for and a mutating job's lease renewed while it runs.
 */
export async function openRun(
  deps: JobProcessorDeps,
  record: JobRecord,
  cluster: ClusterConfig,
  start: RunStart,
): Promise<JobRun> {
  const logger = deps.logger.child({ jobId: record.id, cluster: cluster.name, user: record.requestedBy });
  logger.info({ attempt: start.attempt, pid: process.pid }, 'job started');
  const refusal = start.cancelBy
    ? undefined
    : await checkAccess(
        deps.world,
        deps.members,
        { userId: record.requestedBy, channelId: record.channel },
        cluster,
      );
  const controller = new AbortController();
  start.signal?.addEventListener('abort', () => controller.abort(start.signal?.reason), { once: true });
  start.lease.signal.addEventListener(
    'abort',
    () => {
      logger.warn(
        { attempt: start.lease.holder.attempt },
        'lease lost to another start of this job: stopping here',
      );
      controller.abort(start.lease.signal.reason);
    },
    { once: true },
  );
  await start.pruneLogs();
  const file = await openJobLog(deps.dataDir, record.id);
  // The job page reads the log and the events from Redis: its server may be another process than this worker.
  const feed = createRedisJobFeed(deps.redis, deps.keys, record.id, deps.clock.now, logger, start.batch);
  const log = teeLog(file, feed);
  const thread = await deps.reporterFor(record, log, logger);
  const approvals = threadApprovals(deps, record, cluster, thread, start.batch);
  const mutating = isMutating(record.command);
  let stopWatching: () => void = () => undefined;
  const run: JobRun = {
    record,
    cluster,
    mutating,
    logger,
    denied: refusal && thread.describeRefusal(refusal),
    lease: start.lease,
    signal: controller.signal,
    thread,
    approvals,
    checkpoints: start.checkpoints,
    finished: false,
    parked: false,
    reporter: {
      ...thread,
      async emit(event) {
        // The start that took the lease over shows the job now: this one's events would show it twice.
        if (start.lease.lost) return;
        meterEvent(deps.metrics, record.command.verb, cluster.name, event);
        // Step boundaries in the JSON logs let an operator (and the benchmark) time a job without Slack.
        if (event.type === 'step-started') logger.info({ stepId: event.stepId }, 'step started');
        feed.event(event);
        // The ending and its report leave together: settled first, a worker killed before the report
        // was appended left a thread that never showed its outcome. The report is only queued here;
        // the drainer's own round trips (claim, read) put its sending after the settle lands.
        if (event.type === 'plan-finished')
          await Promise.all([settleJob(deps, run, event.outcome, event.summary), thread.emit(event)]);
        else await thread.emit(event);
      },
    },
    async close() {
      // A finished job's keys first written after it settled (the thread's, if its root message
      // was late) get the retention too, in the same write as the feed's end.
      if (run.finished) feed.end();
      await Promise.all([
        feed.flush(),
        run.finished &&
          start.batch.send((pipeline) => queueRetireJob(pipeline, deps.keys, record.id, deps.retentionMs)),
      ]);
      stopWatching();
      // Also on a crash of the processor itself: a job that is not parked holds nothing.
      if (mutating && !run.parked) await deps.clusterLeases.release(cluster.name, start.lease.holder);
      await file.close();
    },
  };
  stopWatching = await watchRun(deps, run, controller, start.cancelBy);
  return run;
}

/** The job's approvals; a request goes into its thread, so what the thread has queued (its root message) is sent first. */
function threadApprovals(
  deps: JobProcessorDeps,
  record: JobRecord,
  cluster: ClusterConfig,
  thread: JobReporter,
  batch: CommandBatch,
): RedisApprovalDesk {
  return createRedisApprovalDesk(
    deps.redis,
    deps.keys,
    record.id,
    cluster.approvalTimeoutMs,
    deps.clock.now,
    {
      ...deps.announcer,
      async announce(...request) {
        await thread.delivered();
        return deps.announcer.announce(...request);
      },
    },
    batch,
  );
}

/** Every line of the log goes to the file and to the feed (the job page's and the thread's upload) alike. */
function teeLog(file: JobLogSink, feed: JobFeed): JobLogSink {
  return {
    append(line) {
      const written = [file.append(line), feed.line(line)].filter((result) => result instanceof Promise);
      return written.length > 0 ? Promise.all(written).then(() => undefined) : undefined;
    },
  };
}
