import type { RateLimitRule } from './default-rate-limits.js';

export interface RateLimiter {
  /** Counts the call if allowed and returns undefined; otherwise returns Retry-After seconds (≥ 1). */
  take(method: string, channel: string | undefined): number | undefined;
  reset(): void;
}

const minuteMs = 60_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export function createRateLimiter(options: {
  rules: Readonly<Record<string, RateLimitRule>>;
  enabled: boolean;
  now: () => number;
}): RateLimiter {
  const { rules, enabled, now } = options;
  const accepted = new Map<string, number[]>();
  const buckets = new Map<string, Bucket>();

  function windowWait(method: string, rule: RateLimitRule, at: number): number | undefined {
    const windowMs = rule.windowMs ?? minuteMs;
    const recent = (accepted.get(method) ?? []).filter((t) => t > at - windowMs);
    accepted.set(method, recent);
    const allowed = rule.perMinute + (rule.burst ?? 0);
    if (recent.length < allowed) return undefined;
    const freedAt = recent[recent.length - allowed]! + windowMs;
    return freedAt - at;
  }

  function bucketWait(key: string, perChannel: NonNullable<RateLimitRule['perChannel']>, at: number) {
    const bucket = buckets.get(key) ?? { tokens: perChannel.burst, updatedAt: at };
    bucket.tokens = Math.min(
      perChannel.burst,
      bucket.tokens + ((at - bucket.updatedAt) / 1000) * perChannel.perSecond,
    );
    bucket.updatedAt = at;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) return { bucket, waitMs: undefined };
    return { bucket, waitMs: ((1 - bucket.tokens) / perChannel.perSecond) * 1000 };
  }

  return {
    take(method, channel) {
      const rule = rules[method];
      if (!enabled || rule === undefined) return undefined;
      const at = now();
      const windowWaitMs = windowWait(method, rule, at);
      const perChannel =
        rule.perChannel && channel !== undefined
          ? bucketWait(`${method}\u0000${channel}`, rule.perChannel, at)
          : undefined;
      const waitMs = Math.max(windowWaitMs ?? 0, perChannel?.waitMs ?? 0);
      if (windowWaitMs !== undefined || perChannel?.waitMs !== undefined) {
        return Math.max(1, Math.ceil(waitMs / 1000));
      }
      accepted.get(method)!.push(at);
      if (perChannel) perChannel.bucket.tokens -= 1;
      return undefined;
    },
    reset() {
      accepted.clear();
      buckets.clear();
    },
  };
}
