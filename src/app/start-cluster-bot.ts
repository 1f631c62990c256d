import { createHomePublisher } from '../bot/create-home-publisher.js';
import { createHomeTab } from '../bot/create-home-tab.js';
import { createSlackPacer } from '../bot/create-slack-pacer.js';
import { createWebApiPoster } from '../bot/create-web-api-poster.js';
import type { JobPageUrl } from '../bot/job-page-url.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { systemClock } from '../system-clock.js';
import { createSlackClient, slackGroupMembers, slackReadiness } from './slack-client.js';
import { startCore } from './start-core.js';
import { type OpsEndpoints, startOpsServer } from './start-ops-server.js';

/** How often the App Homes being watched are re-read; a change shows within this. */
const HOME_REFRESH_MS = 3_000;

export interface ClusterBot {
  stop(): Promise<void>;
}

/** Wires the process: Redis, the queue, the worker, Slack. Everything it creates, it closes. */
export async function startClusterBot(
  env: Env,
  world: WorldConfig,
  logger: Logger,
  redact: Redact,
  jobPageUrl: JobPageUrl,
): Promise<ClusterBot> {
  const metrics = createMetrics();
  const client = createSlackClient(env, logger, metrics);
  const auth = await client.auth.test();
  const slackProblem = slackReadiness(client);
  const pacer = createSlackPacer(systemClock);
  const poster = createWebApiPoster(client, redact, String(auth.url ?? 'https://slack.com/'), pacer, metrics);
  const members = slackGroupMembers(client, logger);
  const core = await startCore({ env, world, logger, redact, metrics, poster, members });
  const endpoints: OpsEndpoints = {
    async readiness() {
      const problems: string[] = [];
      await core.redis.ping().catch((error: Error) => problems.push(`redis: ${error.message}`));
      const slack = await slackProblem();
      if (slack) problems.push(slack);
      return problems;
    },
    metrics: async () => ({
      contentType: metrics.registry.contentType,
      body: await metrics.registry.metrics(),
    }),
  };

  // Loaded only where Slack requests are taken: a worker never pays Bolt's memory.
  const takesRequests = env.CLUSTER_BOT_ROLE !== 'worker';
  const homeTab = createHomeTab({
    world,
    service: core.service,
    publisher: createHomePublisher(client, redact, pacer, metrics),
    jobPageUrl,
    clock: systemClock,
    logger,
  });
  const app = takesRequests
    ? (await import('../bot/create-slack-app.js')).createSlackApp({
        env,
        world,
        logger,
        poster,
        service: core.service,
        homeTab,
      })
    : undefined;
  await app?.start(env.PORT);
  const stopRefreshing = new AbortController();
  const refreshing = takesRequests ? homeTab.run(HOME_REFRESH_MS, stopRefreshing.signal) : undefined;
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
      stopRefreshing.abort();
      await refreshing;
      await app?.stop();
      await core.stop();
      ops.close();
    },
  };
}
