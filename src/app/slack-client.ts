import { WebClient, WebClientEvent } from '@slack/web-api';
import { cacheGroupMembers } from '../bot/cache-group-members.js';
import { cacheUserNames, type UserName } from '../bot/cache-user-names.js';
import { slackSdkLogger } from '../bot/slack-sdk-logger.js';
import type { Env } from '../config/read-env.js';
import type { SlackPacer } from '../delivery/delivery.js';
import type { Logger } from '../log/create-logger.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { GroupMembers } from '../service/index.js';
import { systemClock } from '../system-clock.js';

/** Slack's Web API client: each request times out after 30 s; retried with backoff on 429 and 5xx, every 429 counted by method. */
export function createSlackClient(env: Env, logger: Logger, metrics: Metrics): WebClient {
  const client = new WebClient(env.SLACK_BOT_TOKEN, {
    slackApiUrl: env.SLACK_API_URL,
    logger: slackSdkLogger(logger),
    retryConfig: { retries: 10, factor: 1.6, minTimeout: 500, maxTimeout: 30_000 },
    // Without one, a call whose answer never comes hangs its job's thread for good (the default is none).
    timeout: 30_000,
  });
  client.on(WebClientEvent.RATE_LIMITED, (_retryAfter: number, request: { url?: string }) => {
    const method =
      String(request?.url ?? 'unknown')
        .split('/')
        .pop() ?? 'unknown';
    metrics.slackRateLimited.inc({ method });
  });
  return client;
}

/** User group members from Slack, cached; an unresolvable group grants nothing (refusing is the safe side). */
export function slackGroupMembers(client: WebClient, logger: Logger): GroupMembers {
  const cached = cacheGroupMembers(
    async (groupId) => (await client.usergroups.users.list({ usergroup: groupId })).users ?? [],
    systemClock.now,
  );
  return async (groupId) => {
    try {
      return await cached(groupId);
    } catch (error) {
      logger.warn({ err: error, groupId }, 'cannot resolve user group members');
      return [];
    }
  };
}

/**
 * People's names from Slack (users.info, paced like every call), cached: the job page shows them
 * beside their ids. The name people see in Slack: the display name, else the full name.
 */
export function slackUserNames(client: WebClient, pacer: SlackPacer, logger: Logger): UserName {
  return cacheUserNames(async (userId) => {
    await pacer.take('users.info');
    try {
      const { user } = await client.users.info({ user: userId });
      return user?.profile?.display_name || user?.real_name || user?.name || undefined;
    } catch (error) {
      logger.warn({ err: error, userId }, 'cannot look up a Slack user name');
      throw error;
    }
  }, systemClock.now);
}

const SLACK_CHECK_MS = 60_000;

/**
 * Whether Slack still takes the token, for /readyz. Probes come every few seconds per pod;
 * Slack's auth.test is asked at most once a minute.
 */
export function slackReadiness(client: WebClient): () => Promise<string | undefined> {
  let checkedAt = Date.now();
  let problem: string | undefined;
  return async () => {
    if (Date.now() - checkedAt > SLACK_CHECK_MS) {
      problem = await client.auth.test().then(
        () => undefined,
        (error: Error) => `slack auth: ${error.message}`,
      );
      checkedAt = Date.now();
    }
    return problem;
  };
}
