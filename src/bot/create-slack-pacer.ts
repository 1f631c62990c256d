import type { Clock } from '../lifecycle/ports/clock.js';

/** A token bucket: `burst` calls at once, then `perSecond` on average. */
interface PaceRule {
  readonly burst: number;
  readonly perSecond: number;
  /** Whether the bucket is per channel (chat.postMessage) rather than per workspace. */
  readonly perChannel?: boolean;
}

/**
 * Slack's published limits (api.slack.com/apis/rate-limits; tiers per method as in
 * ../shared/reference/platform-facts.md), as buckets that never exceed them in any minute:
 * burst + 60 × perSecond ≤ the tier's calls per minute. chat.postMessage is "about one message per
 * second per channel, short bursts allowed".
 */
const RULES: Readonly<Record<string, PaceRule>> = {
  'chat.postMessage': { burst: 3, perSecond: 0.95, perChannel: true },
  'chat.update': { burst: 5, perSecond: 45 / 60 },
  'chat.postEphemeral': { burst: 10, perSecond: 90 / 60 },
  'files.getUploadURLExternal': { burst: 10, perSecond: 90 / 60 },
  'files.completeUploadExternal': { burst: 10, perSecond: 90 / 60 },
  // Tier 4 (100+ per minute per workspace, docs.slack.dev views.publish): one Home per call.
  'views.publish': { burst: 10, perSecond: 90 / 60 },
};

export interface SlackPacer {
  /** Resolves when a call of `method` (to `channel`) fits Slack's limits, and counts it. */
  take(method: string, channel?: string): Promise<void>;
}

/**
 * Waits before a call instead of letting Slack answer 429: a 429 makes the Web API client pause
 * every method for Retry-After, so one chatty thread would stall all the others. Per process: several
 * workers share Slack's budget, so each should stay well inside it (see README, Slack limits).
 */
export function createSlackPacer(clock: Pick<Clock, 'now' | 'sleep'>): SlackPacer {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(method, channel) {
      const rule = RULES[method];
      if (!rule) return;
      const key = rule.perChannel ? `${method} ${channel ?? ''}` : method;
      const now = clock.now();
      const bucket = buckets.get(key) ?? { tokens: rule.burst, at: now };
      bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.at) / 1000) * rule.perSecond);
      bucket.at = now;
      buckets.set(key, bucket);
      // Taken now, possibly into debt: callers that arrive meanwhile queue behind this one.
      bucket.tokens -= 1;
      if (bucket.tokens < 0) await clock.sleep((-bucket.tokens / rule.perSecond) * 1000);
    },
  };
}
