import { createHomePublisher } from '../bot/create-home-publisher.js';
import { createHomeTab } from '../bot/create-home-tab.js';
import { createWebApiPoster } from '../bot/create-web-api-poster.js';
import { listenAddress } from '../config/listen-address.js';
import type { Env } from '../config/read-env.js';
import type { WorldConfig } from '../config/world-config.js';
import { createRedisRateBudget } from '../delivery/create-redis-rate-budget.js';
import { createSharedSlackPacer } from '../delivery/create-shared-slack-pacer.js';
import { redisKeys } from '../jobs/redis-keys.js';
import type { Logger } from '../log/create-logger.js';
import type { Redact } from '../log/create-redactor.js';
import { createMetrics } from '../metrics/create-metrics.js';
import { systemClock } from '../system-clock.js';
import { createJobPages, jobLinksFromEnv, logStreamLimitsFromEnv, startPageServer } from '../web/index.js';
import { connectRedis } from './connect-redis.js';
import { meterBacklog } from './meter-backlog.js';
import { meterJobPages } from './meter-job-pages.js';
import { settledBy, shutdownDeadlines } from './shutdown-deadlines.js';
import { createSlackClient, slackGroupMembers, slackReadiness, slackUserNames } from './slack-client.js';
import { startCore } from './start-core.js';
import { type OpsEndpoints, startOpsServer } from './start-ops-server.js';

/** How often the App Homes being watched are re-read; a change shows within this. */
const HOME_REFRESH_MS = 3_000;

export interface ClusterBot {
  stop(): Promise<void>;
}

/** Wires the process: Redis, the queue, the worker, Slack. Everything it creates, it closes. */
// Long on purpose: the composition root reads top to bottom in start order, and stop() undoes it in reverse.
export async function startClusterBot(
  env: Env,
  world: WorldConfig,
  logger: Logger,
  redact: Redact,
): Promise<ClusterBot> {
  const metrics = createMetrics();
  const client = createSlackClient(env, logger, metrics);
  const auth = await client.auth.test();
  const slackProblem = slackReadiness(client);
  const redis = connectRedis(env);
  // One Slack budget for every bot and worker process on this Redis (docs/design.md, Slack's limits).
  // Its own connection fails fast while Redis is away: a queued take would book a slot, when Redis is back,
  // for a post that was long since paced locally and sent.
  const budgetRedis = connectRedis(env, { failFast: true });
  const pacer = createSharedSlackPacer(
    createRedisRateBudget(budgetRedis, redisKeys(env.REDIS_PREFIX)),
    systemClock,
    logger.child({ component: 'slack-budget' }),
  );
  const poster = createWebApiPoster(client, redact, String(auth.url ?? 'https://slack.com/'), pacer, metrics);
  const members = slackGroupMembers(client, logger);
  const links = jobLinksFromEnv(env, systemClock.now);
  const core = await startCore({
    env,
    world,
    logger,
    redact,
    metrics,
    redis,
    poster,
    members,
    jobPageUrl: links?.url,
  });
  // Served where Slack's requests are taken (a worker serves nothing); the page reads what workers wrote.
  const pages =
    links && env.CLUSTER_BOT_ROLE !== 'worker'
      ? await createJobPages(links, core.service, logger, logStreamLimitsFromEnv(env), {
          threadLink: poster.permalink,
          userName: slackUserNames(client, pacer, logger),
        })
      : undefined;
  if (pages) meterJobPages(metrics.registry, pages);
  if (env.CLUSTER_BOT_ROLE !== 'worker') meterBacklog(metrics.registry, core.service);
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
    poster,
    jobPageUrl: links?.url ?? (() => undefined),
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
        pages: pages?.routes,
        homeTab,
        jobPageUrl: links?.url,
      })
    : undefined;
  await app?.start(listenAddress(env, 'PORT'));
  // Socket Mode opens no listener of its own: the pages get one on PORT.
  const pageServer =
    pages && env.SLACK_APP_TOKEN
      ? await startPageServer(listenAddress(env, 'PORT'), pages.routes)
      : undefined;
  const stopRefreshing = new AbortController();
  const refreshing = takesRequests ? homeTab.run(HOME_REFRESH_MS, stopRefreshing.signal) : undefined;
  const ops = await startOpsServer(listenAddress(env, 'OPS_PORT'), endpoints, logger);
  logger.info(
    {
      role: env.CLUSTER_BOT_ROLE,
      port: (app && !env.SLACK_APP_TOKEN) || pageServer ? env.PORT : undefined,
      jobPages: pages ? env.PUBLIC_URL : undefined,
      host: env.HOST,
      opsPort: env.OPS_PORT,
      socketMode: Boolean(env.SLACK_APP_TOKEN),
    },
    'cluster-bot started',
  );

  return {
    async stop() {
      const deadlines = shutdownDeadlines(env.SHUTDOWN_GRACE_SECONDS, systemClock.now());
      pages?.stop();
      stopRefreshing.abort();
      await app?.stop();
      pageServer?.close();
      await core.stop(deadlines);
      // Waited for after the core: its Redis closed, a round waiting on Redis has failed by now. One
      // waiting on Slack is left, and the Homes are shown again by the next process's rounds.
      if (refreshing && !(await settledBy(refreshing, deadlines.giveUpAt)))
        logger.warn('App Home refresh round not finished (Slack did not answer): left undone');
      budgetRedis.disconnect();
      ops.close();
    },
  };
}
