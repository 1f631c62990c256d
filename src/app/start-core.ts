import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createSlackJobReporting } from '../bot/create-slack-job-reporting.js';
import type { SlackPoster } from '../bot/slack-poster.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import { createAuditLog } from '../jobs/audit-log.js';
import { createClusterLock } from '../jobs/cluster-lock.js';
import { createCommandRateLimit } from '../jobs/command-rate-limit.js';
import { createJobProcessor } from '../jobs/create-job-processor.js';
import { createJobQueue, QUEUE_NAME } from '../jobs/create-job-queue.js';
import { createJobRecords } from '../jobs/job-record.js';
import { redisKeys } from '../jobs/redis-keys.js';
import { createThreadStore } from '../jobs/thread-store.js';
import { createClusterKubes } from '../kube/create-cluster-kubes.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import type { Metrics } from '../metrics/create-metrics.js';
import { meterRemoteShell } from '../metrics/meter-remote-shell.js';
import { type ClusterService, createClusterService, type GroupMembers } from '../service/index.js';
import { createSshRemoteShell } from '../ssh/index.js';
import { systemClock } from '../system-clock.js';
import { connectRedis } from './connect-redis.js';

export interface CoreOptions {
  readonly env: Env;
  readonly world: WorldConfig;
  readonly logger: Logger;
  readonly redact: Redact;
  readonly metrics: Metrics;
  /** Where threads, approvals and alerts go: Slack's Web API, or the console. */
  readonly poster: SlackPoster;
  readonly members: GroupMembers;
}

export interface Core {
  /** The only way a transport reaches the queue, the records and the audit trail. */
  readonly service: ClusterService;
  readonly redis: Redis;
  /** Stops taking jobs; after the grace period, leaves running jobs to another worker. */
  stop(): Promise<void>;
}

/** The transport-independent part of the process: Redis, the queue, the worker, the job layer. */
export async function startCore(options: CoreOptions): Promise<Core> {
  const { env, world, logger, metrics, poster } = options;
  const keys = redisKeys(env.REDIS_PREFIX);
  const redis = connectRedis(env);
  const records = createJobRecords(redis, keys);
  const lock = createClusterLock(redis, keys);
  const audit = createAuditLog(redis, keys, logger);
  const queue = createJobQueue(redis, keys, records, lock, systemClock.now);
  const threads = createThreadStore(redis, keys, world.slack.alertsChannel);
  const kubes = createClusterKubes(world, env.DATA_DIR);
  const threadOf = async (jobId: string) => {
    const record = await records.get(jobId);
    const thread = record ? await threads.load(record) : undefined;
    return {
      channel: thread?.channel ?? world.slack.alertsChannel,
      threadTs: thread?.threadTs,
      jobNumber: record?.number,
    };
  };
  const reporting = createSlackJobReporting({
    poster,
    threads,
    threadOf,
    alertsChannel: world.slack.alertsChannel,
    approvalTimeoutMs: (cluster) => world.clusters[cluster]?.approvalTimeoutMs ?? 30 * 60_000,
  });
  const processor = createJobProcessor({
    world,
    redis,
    keys,
    records,
    lock,
    audit,
    ...reporting,
    members: options.members,
    shell: meterRemoteShell(createSshRemoteShell({ logger: logger.child({ component: 'ssh' }) }), metrics),
    metrics,
    kubeFor: kubes.kubeFor,
    kubeconfigs: kubes,
    clock: systemClock,
    logger,
    redact: options.redact,
    dataDir: env.DATA_DIR,
    retentionMs: env.JOB_RETENTION,
    logsMaxBytes: env.JOB_LOGS_MAX_MB * 1024 * 1024,
  });
  const worker =
    env.CLUSTER_BOT_ROLE === 'bot'
      ? undefined
      : new Worker(QUEUE_NAME, processor, {
          connection: connectRedis(env),
          prefix: keys.bullPrefix,
          concurrency: 4,
        });
  if (worker) await queue.syncVerifySchedules(world);
  worker?.on('failed', (job, error) => logger.error({ err: error, jobId: job?.id }, 'job failed'));

  return {
    redis,
    service: createClusterService({
      world,
      redis,
      keys,
      records,
      threads,
      lock,
      queue,
      audit,
      metrics,
      members: options.members,
      rateLimit: createCommandRateLimit(redis, keys, env.COMMANDS_PER_USER_PER_MINUTE, systemClock.now),
      now: systemClock.now,
    }),
    async stop() {
      if (worker) {
        // Stop taking jobs and give the running steps the grace period. A step still running then is
        // left checkpointed as running: closing its SSH connection ends the remote command, and the
        // job, no longer locked by this worker, is resumed by another one (asking again before a
        // disruptive step).
        const closed = worker.close().then(() => true);
        const graceOver = new Promise<false>((resolve) =>
          setTimeout(() => resolve(false), env.SHUTDOWN_GRACE_SECONDS * 1_000).unref(),
        );
        if (!(await Promise.race([closed, graceOver]))) {
          logger.warn(
            { graceSeconds: env.SHUTDOWN_GRACE_SECONDS },
            'grace period over: leaving running jobs to another worker',
          );
          // Not waiting for the steps: the process exits, its SSH connections drop (ending the
          // remote commands) and the jobs' BullMQ locks lapse, so another worker picks them up.
          redis.disconnect();
          return;
        }
      }
      await queue.close();
      redis.disconnect();
    },
  };
}
