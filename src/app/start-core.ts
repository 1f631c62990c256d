import type { Redis } from 'ioredis';
import type { ApprovalPolicy } from '../bot/create-slack-announcer.js';
import { createSlackJobReporting } from '../bot/create-slack-job-reporting.js';
import type { SlackPoster } from '../bot/slack-poster.js';
import { createThreadOpSender } from '../bot/thread/create-thread-op-sender.js';
import type { Env } from '../config/read-env.js';
import type { ClusterConfig, WorldConfig } from '../config/world-config.js';
import { createDelivery } from '../delivery/create-delivery.js';
import type { Delivery } from '../delivery/delivery.js';
import { createJobProcessor } from '../jobs/create-job-processor.js';
import { createJobStores, type JobStores } from '../jobs/create-job-stores.js';
import { redisKeys } from '../jobs/redis-keys.js';
import { createClusterKubes } from '../kube/create-cluster-kubes.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import type { Metrics } from '../metrics/create-metrics.js';
import { type ClusterService, createClusterService, type GroupMembers } from '../service/index.js';
import { createSshRemoteShell } from '../ssh/index.js';
import { systemClock } from '../system-clock.js';
import { createOtlpTracing } from '../tracing/create-otlp-tracing.js';
import { type JobTracing, NO_TRACING } from '../tracing/job-tracing.js';
import { createRunShells, type RunShells } from './create-run-shells.js';
import type { ShutdownDeadlines } from './shutdown-deadlines.js';
import { startWorker } from './start-worker.js';

export interface CoreOptions {
  readonly env: Env;
  readonly world: WorldConfig;
  readonly logger: Logger;
  readonly redact: Redact;
  readonly metrics: Metrics;
  /** The process's Redis connection, handed in so the Slack pacer shares it; the core closes it at stop. */
  readonly redis: Redis;
  /** Where threads, approvals and alerts go: Slack's Web API, or the console. */
  readonly poster: SlackPoster;
  readonly members: GroupMembers;
  /** A job's page link (PUBLIC_URL set): the boards link to it. */
  readonly jobPageUrl?: ((jobId: string, pageNonce: string | undefined) => string | undefined) | undefined;
}

export interface Core {
  /** The only way a transport reaches the queue, the records and the audit trail. */
  readonly service: ClusterService;
  readonly redis: Redis;
  /**
   * Stops taking jobs and sending threads; after the grace period, leaves what is left to another
   * process. Done by `giveUpAt` even when Redis does not answer.
   */
  stop(deadlines: ShutdownDeadlines): Promise<void>;
}

/** The transport-independent part of the process: Redis, the queue, the worker, the job layer. */
export async function startCore(options: CoreOptions): Promise<Core> {
  const { env, world, logger, metrics, redis } = options;
  const stores = createJobStores(
    redis,
    redisKeys(env.REDIS_PREFIX),
    world,
    logger,
    systemClock.now,
    env.COMMANDS_PER_USER_PER_MINUTE,
    env.JOB_RETENTION,
  );
  const { delivery, drainer } = startDelivery(options, stores);
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? createOtlpTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME })
    : NO_TRACING;
  const sshLogger = logger.child({ component: 'ssh' });
  const shells = createRunShells(
    (jobId) =>
      createSshRemoteShell({
        logger: sshLogger.child({ jobId }),
        channelsPerConnection: env.SSH_CHANNELS_PER_CONNECTION,
      }),
    metrics,
  );
  const worker =
    env.CLUSTER_BOT_ROLE === 'bot'
      ? undefined
      : startWorker(env, stores.keys, createProcessor(options, stores, delivery, tracing, shells), logger);
  if (worker) await stores.queue.syncVerifySchedules(world);
  return {
    redis,
    service: createClusterService({
      ...stores,
      world,
      metrics,
      members: options.members,
      clock: systemClock,
    }),
    async stop({ graceOver, giveUpAt }) {
      const jobsLetGo = worker ? await worker.stop() : true;
      // The runs still going after the grace lose their connections now (detached commands go on).
      await shells.closeAll();
      // The runs that ended or let go have ended their spans: they leave before the process does.
      await tracing.shutdown().catch((error: Error) => logger.warn({ err: error }, 'traces not sent'));
      // Threads keep going out for what is left of the grace period; the rest waits for another process.
      await drainer.stop(graceOver, giveUpAt);
      if (!jobsLetGo) {
        // Not waiting for the steps: their SSH connections were closed above (ending the remote
        // commands that are not detached) and the jobs' BullMQ locks lapse, so another worker picks them up.
        redis.disconnect();
        return;
      }
      // Not bounded: it sends Redis nothing, BullMQ quits no connection it was given (this one, disconnected next).
      await stores.queue.close();
      redis.disconnect();
    },
  };
}

/** Every process sends the threads' outboxes: its own jobs' at once, a dead process's once its lease lapses. */
function startDelivery(options: CoreOptions, stores: JobStores) {
  const logger = options.logger.child({ component: 'thread-outbox' });
  const delivery = createDelivery({
    redis: stores.redis,
    keys: stores.keys,
    batch: stores.batch,
    retentionMs: options.env.JOB_RETENTION,
    logger,
  });
  const drainer = delivery.startDrainer(
    createThreadOpSender({
      poster: options.poster,
      logger,
      readLog: stores.feed.uploadText,
      jobPageUrl: options.jobPageUrl,
    }),
  );
  return { delivery, drainer };
}

/** The worker's processor: the job layer with Slack (or the console) as its reporting, SSH and Kubernetes as its world. */
function createProcessor(
  options: CoreOptions,
  stores: JobStores,
  delivery: Delivery,
  tracing: JobTracing,
  shells: RunShells,
) {
  const { env, world, logger, metrics, poster } = options;
  const { records, threads } = stores;
  const kubes = createClusterKubes(world, env.DATA_DIR);
  const threadOf = async (jobId: string) => {
    const record = await records.get(jobId);
    const thread = record ? await threads.load(record) : undefined;
    return {
      channel: thread?.channel ?? world.slack.alertsChannel,
      threadTs: thread?.threadTs,
      jobNumber: record?.number,
      requestedBy: record?.requestedBy,
    };
  };
  return createJobProcessor({
    ...stores,
    ...createSlackJobReporting({
      poster,
      threads,
      delivery,
      threadOf,
      alertsChannel: world.slack.alertsChannel,
      approvalPolicyOf: (cluster) => approvalPolicy(world.clusters[cluster]),
    }),
    world,
    members: options.members,
    openShell: shells.open,
    metrics,
    kubeFor: kubes.kubeFor,
    kubeconfigs: kubes,
    clock: systemClock,
    logger,
    redact: options.redact,
    dataDir: env.DATA_DIR,
    retentionMs: env.JOB_RETENTION,
    logsMaxBytes: env.JOB_LOGS_MAX_MB * 1024 * 1024,
    tracing,
  });
}

/** A cluster the config no longer names has nobody to approve its requests. */
function approvalPolicy(cluster: ClusterConfig | undefined): ApprovalPolicy {
  return {
    timeoutMs: cluster?.approvalTimeoutMs ?? 30 * 60_000,
    approvers: cluster?.approvers ?? [],
    allowSelfApproval: cluster?.allowSelfApproval ?? false,
    notifyApprovers: cluster?.notifyApprovers ?? 'mention',
  };
}
