import { WebClient, WebClientEvent } from '@slack/web-api';
import { cacheGroupMembers } from '../bot/cache-group-members.js';
import { createSlackPacer } from '../bot/create-slack-pacer.js';
import { createWebApiPoster } from '../bot/create-web-api-poster.js';
import { slackSdkLogger } from '../bot/slack-sdk-logger.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { systemClock } from '../system-clock.js';
import { startCore } from './start-core.js';
import { type OpsEndpoints, startOpsServer } from './start-ops-server.js';

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
  const client = new WebClient(env.SLACK_BOT_TOKEN, {
    slackApiUrl: env.SLACK_API_URL,
    logger: slackSdkLogger(logger),
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
  const poster = createWebApiPoster(
    client,
    redact,
    String(auth.url ?? 'https://slack.com/'),
    createSlackPacer(systemClock),
    metrics,
  );
  const groupMembers = cacheGroupMembers(
    async (groupId) => (await client.usergroups.users.list({ usergroup: groupId })).users ?? [],
    systemClock.now,
  );
  const core = await startCore({
    env,
    world,
    logger,
    redact,
    metrics,
    poster,
    members: async (groupId) => {
      try {
        return await groupMembers(groupId);
      } catch (error) {
        // An unresolvable group grants nothing: refusing is the safe side.
        logger.warn({ err: error, groupId }, 'cannot resolve user group members');
        return [];
      }
    },
  });
  const { redis } = core;

  // Loaded only where Slack requests are taken: a worker never pays Bolt's memory.
  const app =
    env.CLUSTER_BOT_ROLE === 'worker'
      ? undefined
      : (await import('../bot/create-slack-app.js')).createSlackApp({
          env,
          world,
          logger,
          poster,
          service: core.service,
        });
  await app?.start(env.PORT);
  const ops = await startOpsServer(env.OPS_PORT, endpoints, logger);
  logger.info(
    {
      role: env.CLUSTER_BOT_ROLE,
      port: app && !env.SLACK_APP_TOKEN ? env.PORT : undefined,
      opsPort: env.OPS_PORT,
      socketMode: Boolean(env.SLACK_APP_TOKEN),
    },
    'cluster-bot started',
  );

  return {
    async stop() {
      await app?.stop();
      await core.stop();
      ops.close();
    },
  };
}
