import { DelayedError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createThreadReporter } from '../bot/create-thread-reporter.js';
import type { SlackPoster } from '../bot/slack-poster.js';
import type { WorldConfig } from '../config/world-config.js';
import { runPlan } from '../lifecycle/engine/run-plan.js';
import { buildPlan } from '../lifecycle/plans/build-plan.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import type { RemoteShell } from '../lifecycle/ports/remote-shell.js';
import type { Logger } from '../log/create-logger.js';
import type { JobData } from './create-job-queue.js';
import { type ApprovalAnnouncer, createRedisApprovalDesk } from './create-redis-approval-desk.js';
import { openJobLog } from './job-log.js';
import type { JobRecords } from './job-record.js';
import { createRedisCheckpointStore } from './redis-checkpoint-store.js';
import type { RedisKeys } from './redis-keys.js';
import { createThreadStore } from './thread-store.js';

export interface JobProcessorDeps {
  readonly world: WorldConfig;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly records: JobRecords;
  readonly poster: SlackPoster;
  readonly announcer: ApprovalAnnouncer;
  readonly shell: RemoteShell;
  readonly kubeFor: (cluster: string) => KubeGateway;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly dataDir: string;
  readonly updateIntervalMs?: number;
}

/**
 * The BullMQ processor: one engine run per entry. While an approval is pending the job parks as a
 * delayed job (no worker slot held) until its expiry; a decision promotes it early.
 */
export function createJobProcessor(deps: JobProcessorDeps) {
  const threads = createThreadStore(deps.redis, deps.keys, deps.world.slack.alertsChannel);
  return async (job: Job<JobData>, token: string | undefined, signal?: AbortSignal): Promise<string> => {
    const record = await deps.records.get(job.data.jobId);
    if (!record) throw new Error(`job ${job.data.jobId} has no record`);
    const cluster = deps.world.clusters[record.command.cluster]!;
    const logger = deps.logger.child({ jobId: record.id, cluster: cluster.name, user: record.requestedBy });
    const log = await openJobLog(deps.dataDir, record.id);
    const thread = await threads.load(record);
    const reporter = createThreadReporter({
      poster: deps.poster,
      logger,
      thread,
      save: threads.save,
      appendLog: log.append,
      readLog: log.read,
      updateIntervalMs: deps.updateIntervalMs,
    });
    try {
      const result = await runPlan(buildPlan(record.command, deps.world), {
        jobId: record.id,
        world: deps.world,
        shell: deps.shell,
        kube: deps.kubeFor(cluster.name),
        clock: deps.clock,
        checkpoints: createRedisCheckpointStore(deps.redis, deps.keys, record.id),
        approvals: createRedisApprovalDesk(
          deps.redis,
          deps.keys,
          record.id,
          cluster.approvalTimeoutMs,
          deps.clock.now,
          deps.announcer,
        ),
        reporter,
        signal: signal ?? new AbortController().signal,
      });
      await reporter.flush();
      if (result.status === 'waiting') {
        logger.info({ stepId: result.stepId, until: result.until }, 'waiting for approval');
        await job.moveToDelayed(result.until, token);
        throw new DelayedError();
      }
      await deps.records.update(record.id, { outcome: result.outcome, finishedAt: deps.clock.now() });
      logger.info({ outcome: result.outcome }, result.summary);
      return result.outcome;
    } finally {
      await log.close();
    }
  };
}
