export interface RateLimitRule {
  /** Calls accepted per sliding window, per method, for the one workspace the fake serves. */
  perMinute: number;
  /** Extra calls tolerated in the window ("a small amount of burst behavior is tolerated" for Tier 1). */
  burst?: number;
  /** Window length, 60 s like Slack; tests shorten it to watch a 429 clear without waiting a minute. */
  windowMs?: number;
  /** chat.postMessage's special tier: a token bucket per channel on top of the workspace cap. */
  perChannel?: { perSecond: number; burst: number };
}

const tier1: RateLimitRule = { perMinute: 1, burst: 2 };
const tier2: RateLimitRule = { perMinute: 20 };
const tier3: RateLimitRule = { perMinute: 50 };
const tier4: RateLimitRule = { perMinute: 100 };

/**
 * Slack's published tiers (api.slack.com/apis/rate-limits; per-method tiers as listed in
 * slackapi/java-slack-sdk MethodsRateLimits.java). Slack says "1+", "20+": these are the floors, so a
 * bot that is polite here is polite in production.
 */
export const defaultRateLimits: Readonly<Record<string, RateLimitRule>> = {
  'auth.test': tier4,
  'chat.postMessage': { perMinute: 600, perChannel: { perSecond: 1, burst: 3 } },
  'chat.update': tier3,
  'chat.delete': tier3,
  'chat.postEphemeral': tier4,
  'conversations.replies': tier3,
  'usergroups.users.list': tier2,
  'users.info': tier4,
  'files.getUploadURLExternal': tier4,
  'files.completeUploadExternal': tier4,
  'apps.connections.open': tier1,
  // Tier 4 per workspace (docs.slack.dev/reference/methods/views.publish); no per-user figure is published.
  'views.publish': tier4,
};
