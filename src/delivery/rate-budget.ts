/** How fast calls may go: `burst` at once, then `perSecond` on average. */
export interface Pace {
  readonly burst: number;
  readonly perSecond: number;
}

/**
 * A rate budget shared by every process of the bot (Slack's limits are per app, not per process).
 * The Slack pacer asks it before a call (create-shared-slack-pacer.ts); create-redis-rate-budget.ts keeps it.
 */
export interface RateBudget {
  /**
   * Takes the next call of bucket `name` under `pace`, possibly ahead of time: resolves with how many
   * milliseconds the caller must wait before making it (0: now). Callers that ask meanwhile queue
   * behind it, in the order they asked.
   */
  take(name: string, pace: Pace): Promise<number>;
}
