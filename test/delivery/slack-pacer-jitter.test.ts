import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSlackPacer } from '../../src/delivery/create-slack-pacer.js';
import { createRateLimiter } from '../lab/fake-slack/create-rate-limiter.js';
import { defaultRateLimits } from '../lab/fake-slack/default-rate-limits.js';
import { createInstantClock } from '../support/manual-clock.js';

/** How late a paced call may reach Slack after its slot: a loaded host, a slow connection. */
const WIRE_DELAY_MS = 900;

/**
 * Calls asked for one after another (each after `gapMs`), paced, then each reaching Slack up to
 * `WIRE_DELAY_MS` after its slot; returns how many Slack answered 429.
 */
async function rateLimitedOf(method: string, calls: readonly { gapMs: number; delayMs: number }[]) {
  const clock = createInstantClock(0);
  const pacer = createSlackPacer(clock);
  const arrivals: number[] = [];
  for (const { gapMs, delayMs } of calls) {
    clock.advance(gapMs);
    await pacer.take(method, 'C0OPS');
    arrivals.push(clock.now() + delayMs);
  }
  let at = 0;
  const slack = createRateLimiter({ rules: defaultRateLimits, enabled: true, now: () => at });
  let limited = 0;
  for (const arrival of arrivals.sort((a, b) => a - b)) {
    at = arrival;
    if (slack.take(method, 'C0OPS') !== undefined) limited++;
  }
  return limited;
}

describe('Slack pacer, with calls reaching Slack late', () => {
  it('a burst that reaches Slack late and the next post on time: no 429', async () => {
    // The burst's posts wait on a busy event loop; the one after them goes straight out.
    const calls = [0, 0, 0, 0, 0, 0].map((gapMs, i) => ({ gapMs, delayMs: i < 3 ? WIRE_DELAY_MS : 0 }));
    expect(await rateLimitedOf('chat.postMessage', calls)).toBe(0);
  });

  it.each(['chat.postMessage', 'chat.update', 'views.publish', 'files.completeUploadExternal'])(
    'no 429 from %s, whenever the calls are asked for and however late (up to 0.9 s) each arrives',
    async (method) => {
      const call = fc.record({
        gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3_000 })),
        delayMs: fc.integer({ min: 0, max: WIRE_DELAY_MS }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 120 }), async (calls) => {
          expect(await rateLimitedOf(method, calls)).toBe(0);
        }),
        { numRuns: 200 },
      );
    },
  );
});
