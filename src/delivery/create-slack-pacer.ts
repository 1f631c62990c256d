import type { Clock } from '../lifecycle/ports/clock.js';
import type { SlackPacer } from './delivery.js';
import type { Pace } from './rate-budget.js';

/** A token bucket: `burst` calls at once, then `perSecond` on average. */
interface PaceRule extends Pace {
  /** Whether the bucket is per channel (chat.postMessage) rather than per workspace. */
  readonly perChannel?: boolean;
}

/**
 * Slack's published limits (api.slack.com/apis/rate-limits; tiers per method as in
 * ../shared/reference/platform-facts.md), as buckets that never exceed them in any minute:
 * burst + 60 × perSecond ≤ the tier's calls per minute. chat.postMessage is "about one message per
 * second per channel, short bursts allowed" (three here).
 *
 * Each burst keeps one call in hand. A slot is when a call may leave, not when Slack counts it: a
 * burst that reaches Slack a little late (a busy event loop, a slow connection) refills Slack's
 * bucket later than ours, and a full burst then left the next post 53 ms of slack before a 429.
 */
const RULES: Readonly<Record<string, PaceRule>> = {
  'chat.postMessage': { burst: 3 - 1, perSecond: 0.95, perChannel: true },
  'chat.update': { burst: 5 - 1, perSecond: 45 / 60 },
  'chat.postEphemeral': { burst: 10 - 1, perSecond: 90 / 60 },
  'files.getUploadURLExternal': { burst: 10 - 1, perSecond: 90 / 60 },
  'files.completeUploadExternal': { burst: 10 - 1, perSecond: 90 / 60 },
  // Tier 4 (100+ per minute per workspace, docs.slack.dev views.publish): one Home per call.
  'views.publish': { burst: 10 - 1, perSecond: 90 / 60 },
};

/** The bucket a call of `method` (to `channel`) is counted in, and its pace; none for unlisted methods. */
export function slackBucket(method: string, channel?: string): { name: string; pace: Pace } | undefined {
  const rule = RULES[method];
  if (!rule) return undefined;
  return { name: rule.perChannel ? `${method}:${channel ?? ''}` : method, pace: rule };
}

/**
 * Waits before a call instead of letting Slack answer 429: a 429 makes the Web API client pause
 * every method for Retry-After, so one chatty thread would stall all the others. This one counts
 * one process's calls only: the fleet's processes share the budget in Redis
 * (create-shared-slack-pacer.ts), which falls back to this while Redis does not answer.
 */
export function createSlackPacer(clock: Pick<Clock, 'now' | 'sleep'>): SlackPacer {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(method, channel) {
      const found = slackBucket(method, channel);
      if (!found) return;
      const { name, pace: rule } = found;
      const now = clock.now();
      const bucket = buckets.get(name) ?? { tokens: rule.burst, at: now };
      bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.at) / 1000) * rule.perSecond);
      bucket.at = now;
      buckets.set(name, bucket);
      // Taken now, possibly into debt: callers that arrive meanwhile queue behind this one.
      bucket.tokens -= 1;
      if (bucket.tokens < 0) await clock.sleep((-bucket.tokens / rule.perSecond) * 1000);
    },
  };
}
