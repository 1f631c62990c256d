export type Fault = { kind: 'fail'; status: number } | { kind: 'storm'; retryAfterSec: number };

export interface FaultInjector {
  /** Answer the next `count` calls of `method` with a bare HTTP error, as a Slack edge outage does. */
  failNext(method: string, options: { status: 500 | 502 | 503; count?: number }): void;
  /** Answer every call of `method` (or all with '*') 429 until the storm ends. */
  stormRateLimit(method: string, options: { retryAfterSec: number; durationMs: number }): void;
  setLatency(ms: number): void;
  readonly latencyMs: number;
  /** Leaves every call of the Web API `method` unanswered from now until released: a Slack that hangs. */
  holdCalls(method: string): HeldCalls;
  /** Resolves once a call of `method` may be answered: at once, unless its method is held. */
  untilReleased(method: string): Promise<void>;
  /** The fault to apply to this call, consuming a failNext count; storms hit Web API methods only. */
  take(method: string, options?: { storms: boolean }): Fault | undefined;
  reset(): void;
}

export interface HeldCalls {
  /** How many calls arrived and wait. */
  readonly arrived: number;
  /** Answers the held calls and those to come. */
  release(): void;
}

export function createFaultInjector(now: () => number): FaultInjector {
  const failures = new Map<string, { status: number; remaining: number }>();
  const holds = new Map<string, { arrived: number; released: Promise<void>; release(): void }>();
  const storms = new Map<string, { retryAfterSec: number; until: number }>();
  let latencyMs = 0;

  function activeStorm(method: string) {
    for (const key of [method, '*']) {
      const storm = storms.get(key);
      if (storm && storm.until > now()) return storm;
    }
    return undefined;
  }

  return {
    failNext(method, { status, count = 1 }) {
      failures.set(method, { status, remaining: count });
    },
    stormRateLimit(method, { retryAfterSec, durationMs }) {
      storms.set(method, { retryAfterSec: Math.max(1, Math.ceil(retryAfterSec)), until: now() + durationMs });
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    get latencyMs() {
      return latencyMs;
    },
    holdCalls(method) {
      let resolve = () => {};
      const released = new Promise<void>((settle) => {
        resolve = settle;
      });
      const hold = {
        arrived: 0,
        released,
        release() {
          if (holds.get(method) === hold) holds.delete(method);
          resolve();
        },
      };
      holds.get(method)?.release();
      holds.set(method, hold);
      return {
        get arrived() {
          return hold.arrived;
        },
        release: hold.release,
      };
    },
    async untilReleased(method) {
      const hold = holds.get(method);
      if (!hold) return;
      hold.arrived += 1;
      await hold.released;
    },
    take(method, { storms: withStorms } = { storms: true }) {
      const storm = withStorms ? activeStorm(method) : undefined;
      if (storm) return { kind: 'storm', retryAfterSec: storm.retryAfterSec };
      const failure = failures.get(method);
      if (!failure || failure.remaining <= 0) return undefined;
      failure.remaining -= 1;
      return { kind: 'fail', status: failure.status };
    },
    reset() {
      failures.clear();
      storms.clear();
      for (const hold of [...holds.values()]) hold.release();
      latencyMs = 0;
    },
  };
}
