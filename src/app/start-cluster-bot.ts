import { WebClient, WebClientEvent } from '@slack/web-api';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createSlackAnnouncer } from '../bot/create-slack-announcer.js';
import { createSlackApp } from '../bot/create-slack-app.js';
import { createWebApiPoster } from '../bot/create-web-api-poster.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import { createAuditLog } from '../jobs/audit-log.js';
import { createClusterLock } from '../jobs/cluster-lock.js';
import { createJobProcessor } from '../jobs/create-job-processor.js';
import { createJobQueue, QUEUE_NAME } from '../jobs/create-job-queue.js';
import { createJobRecords } from '../jobs/job-record.js';
import { redisKeys } from '../jobs/redis-keys.js';
import { createThreadStore } from '../jobs/thread-store.js';
import { createLazyKubeGateway } from '../kube/create-lazy-kube-gateway.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { meterRemoteShell } from '../metrics/meter-remote-shell.js';
import { createSshRemoteShell } from '../ssh/index.js';
import { systemClock } from '../system-clock.js';
import { type OpsEndpoints, opsRoutes, startHealthServer } from './health-server.js';

const SLACK_CHECK_MS = 60_000;

export interface ClusterBot {
  stop(): Promise<void>;
}

/** Wires the process: Redis, the queue, the worker, Slack. Everything it creates, it closes. */
export async function startClusterBot(
  env: Env,
  world: WorldConfig,
  logger: Logger,
  redact: Redact,
): Promise<ClusterBot> {
  const keys = redisKeys(env.REDIS_PREFIX);
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const records = createJobRecords(redis, keys);
  const lock = createClusterLock(redis, keys);
  const audit = createAuditLog(redis, keys, logger);
  const queue = createJobQueue(redis, keys, records, lock, systemClock.now);
  const client = new WebClient(env.SLACK_BOT_TOKEN, {
    slackApiUrl: env.SLACK_API_URL,
    retryConfig: { retries: 10, factor: 1.6, minTimeout: 500, maxTimeout: 30_000 },
  });
  const auth = await client.auth.test();
  const metrics = createMetrics();
  client.on(WebClientEvent.RATE_LIMITED, (_retryAfter: number, request: { url?: string }) => {
    metrics.slackRateLimited.inc({
      method:
        String(request?.url ?? 'unknown')
          .split('/')
          .pop() ?? 'unknown',
    });
  });
  let slackCheckedAt = Date.now();
  let slackProblem: string | undefined;
  const endpoints: OpsEndpoints = {
    async readiness() {
      const problems: string[] = [];
      await redis.ping().catch((error: Error) => problems.push(`redis: ${error.message}`));
      // Probes come every few seconds per pod; Slack's auth.test is asked at most once a minute.
      if (Date.now() - slackCheckedAt > SLACK_CHECK_MS) {
        slackProblem = await client.auth.test().then(
          () => undefined,
          (error: Error) => `slack auth: ${error.message}`,
        );
        slackCheckedAt = Date.now();
      }
      if (slackProblem) problems.push(slackProblem);
      return problems;
    },
    metrics: async () => ({
      contentType: metrics.registry.contentType,
      body: await metrics.registry.metrics(),
    }),
  };
  const poster = createWebApiPoster(client, redact, String(auth.url ?? 'https://slack.com/'), metrics);
  const threads = createThreadStore(redis, keys, world.slack.alertsChannel);
  const kubes = new Map<string, KubeGateway>();
  const kubeFor = (cluster: string) => {
    let gateway = kubes.get(cluster);
    if (!gateway) {
      gateway = createLazyKubeGateway(world.clusters[cluster]!.kubeconfigPath);
      kubes.set(cluster, gateway);
    }
    return gateway;
  };
  const threadOf = async (jobId: string) => {
    const record = await records.get(jobId);
    const thread = record ? await threads.load(record) : undefined;
    return { channel: thread?.channel ?? world.slack.alertsChannel, threadTs: thread?.threadTs };
  };
  const announcer = createSlackAnnouncer(
    poster,
    records,
    threadOf,
    (cluster) => world.clusters[cluster]?.approvalTimeoutMs ?? 30 * 60_000,
  );
  const processor = createJobProcessor({
    world,
    redis,
    keys,
    records,
    lock,
    audit,
    poster,
    announcer,
    shell: meterRemoteShell(createSshRemoteShell({ logger: logger.child({ component: 'ssh' }) }), metrics),
    metrics,
    kubeFor,
    clock: systemClock,
    logger,
    redact,
    dataDir: env.DATA_DIR,
  });
  const worker =
    env.CLUSTER_BOT_ROLE === 'bot'
      ? undefined
      : new Worker(QUEUE_NAME, processor, {
          connection: new Redis(env.REDIS_URL, { maxRetriesPerRequest: null }),
          prefix: keys.bullPrefix,
          concurrency: 4,
        });
  if (worker) await queue.syncVerifySchedules(world);
  worker?.on('failed', (job, error) => logger.error({ err: error, jobId: job?.id }, 'job failed'));

  const app =
    env.CLUSTER_BOT_ROLE === 'worker'
      ? undefined
      : createSlackApp({
          env,
          world,
          redis,
          keys,
          queue,
          logger,
          records,
          threads,
          lock,
          audit,
          metrics,
          poster,
          threadOf,
          now: systemClock.now,
          members: async (groupId) => {
            try {
              return (await client.usergroups.users.list({ usergroup: groupId })).users ?? [];
            } catch (error) {
              // An unresolvable group grants nothing: refusing is the safe side.
              logger.warn({ err: error, groupId }, 'cannot resolve user group members');
              return [];
            }
          },
          customRoutes: opsRoutes(endpoints).map((route) => ({ ...route, method: ['GET'] })),
        });
  await app?.start(env.PORT);
  const receiverServesHttp = app !== undefined && env.SLACK_APP_TOKEN === undefined;
  const health = receiverServesHttp ? undefined : await startHealthServer(env.PORT, endpoints);
  logger.info(
    { role: env.CLUSTER_BOT_ROLE, port: env.PORT, socketMode: Boolean(env.SLACK_APP_TOKEN) },
    'cluster-bot started',
  );

  return {
    async stop() {
      await app?.stop();
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
          health?.close();
          redis.disconnect();
          return;
        }
      }
      health?.close();
      await queue.close();
      redis.disconnect();
    },
  };
}
