import type { Redis } from 'ioredis';
import type { GroupMembers } from '../../src/access/access-policy.js';
import { createSlackJobReporting } from '../../src/bot/create-slack-job-reporting.js';
import type { SlackPoster } from '../../src/bot/slack-poster.js';
import { createThreadOpSender } from '../../src/bot/thread/create-thread-op-sender.js';
import { readEnv } from '../../src/config/read-env.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { createDelivery } from '../../src/delivery/create-delivery.js';
import { createAuditLog } from '../../src/jobs/audit-log.js';
import type { ClusterLease } from '../../src/jobs/cluster-lease.js';
import { createCommandBatch } from '../../src/jobs/command-batch.js';
import { createJobProcessor } from '../../src/jobs/create-job-processor.js';
import { createRedisHostKeyPins } from '../../src/jobs/create-redis-host-key-pins.js';
import type { JobRecords } from '../../src/jobs/job-record.js';
import type { RunShell } from '../../src/jobs/ports/run-shell.js';
import { createJobFeedReader } from '../../src/jobs/read-job-feed.js';
import type { RedisKeys } from '../../src/jobs/redis-keys.js';
import { createThreadStore } from '../../src/jobs/thread-store.js';
import type { Logger } from '../../src/log/create-logger.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { systemClock } from '../../src/system-clock.js';
import { createMemoryKube } from './memory-kube.js';
import { createMemoryKubeconfigs } from './memory-kubeconfigs.js';

export interface InProcessParts {
  readonly world: WorldConfig;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly records: JobRecords;
  readonly clusterLeases: ClusterLease;
  readonly poster: SlackPoster;
  readonly logger: Logger;
  /** Every run's shell (the app opens one per run). */
  readonly shell: RunShell;
  readonly dataDir: string;
  /** Default: no user group has members. */
  readonly members?: GroupMembers;
  /** Default: none. */
  readonly redact?: (text: string) => string;
  /** Where the drainer sends from (leases, reads, takes, the upload's log); default `redis`. A job's appends stay on `redis`. */
  readonly deliveryRedis?: Redis;
  /** How often a running job renews its lease; default the processor's. */
  readonly leaseRenewMs?: number;
}

/**
 * The worker's real processor as the app builds it, with a healthy in-memory cluster and the system
 * clock; its `drainer` sends the threads' outboxes to the poster (stop it with the test).
 */
export function createInProcessProcessor(parts: InProcessParts) {
  const kube = createMemoryKube().kube;
  const defaults = readEnv({});
  const batch = createCommandBatch(parts.redis);
  const deliveryRedis = parts.deliveryRedis ?? parts.redis;
  const delivery = createDelivery({
    redis: deliveryRedis,
    keys: parts.keys,
    batch,
    retentionMs: defaults.JOB_RETENTION,
    logger: parts.logger,
  });
  const drainer = delivery.startDrainer(
    createThreadOpSender({
      poster: parts.poster,
      logger: parts.logger,
      readLog: createJobFeedReader(deliveryRedis, parts.keys).uploadText,
    }),
  );
  const audit = createAuditLog(parts.redis, parts.keys, parts.logger);
  const processor = createJobProcessor({
    ...parts,
    openShell: () => parts.shell,
    batch,
    retentionMs: defaults.JOB_RETENTION,
    logsMaxBytes: defaults.JOB_LOGS_MAX_MB * 1024 * 1024,
    members: parts.members ?? (async () => []),
    redact: parts.redact ?? ((text) => text),
    audit,
    hostKeyPins: createRedisHostKeyPins(parts.redis, parts.keys, audit),
    ...createSlackJobReporting({
      poster: parts.poster,
      threads: createThreadStore(parts.redis, parts.keys, parts.world.slack.alertsChannel),
      delivery,
      threadOf: async () => ({ channel: 'C0OPS' }),
      alertsChannel: parts.world.slack.alertsChannel,
      approvalPolicyOf: (cluster) => ({
        timeoutMs: 60_000,
        approvers: parts.world.clusters[cluster]?.approvers ?? [],
        allowSelfApproval: parts.world.clusters[cluster]?.allowSelfApproval ?? false,
        notifyApprovers: parts.world.clusters[cluster]?.notifyApprovers ?? 'mention',
      }),
    }),
    metrics: createMetrics(),
    kubeFor: () => kube,
    kubeconfigs: createMemoryKubeconfigs().keeper,
    clock: systemClock,
  });
  return Object.assign(processor, { drainer });
}
