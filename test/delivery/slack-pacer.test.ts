import { describe, expect, it } from 'vitest';
import { createSlackPacer } from '../../src/delivery/create-slack-pacer.js';
import { createInstantClock } from '../support/manual-clock.js';

/** When each of `count` calls may go, relative to the first, with every call asked for at once. */
async function sendTimes(method: string, count: number, channel?: string): Promise<number[]> {
  const clock = createInstantClock(0);
  const pacer = createSlackPacer(clock);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await pacer.take(method, channel);
    times.push(clock.now());
  }
  return times;
}

describe('Slack pacer', () => {
  it('lets two posts to a channel go at once (Slack allows three: one is kept in hand), then about one a second', async () => {
    const times = await sendTimes('chat.postMessage', 6, 'C0OPS');
    expect(times.slice(0, 2)).toEqual([0, 0]);
    const gaps = times.slice(2).map((at, i) => at - times[i + 1]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1_000);
    for (const gap of gaps) expect(gap).toBeLessThan(1_100);
  });

  it('keeps separate budgets per channel for posts', async () => {
    const clock = createInstantClock(0);
    const pacer = createSlackPacer(clock);
    for (let i = 0; i < 2; i++) await pacer.take('chat.postMessage', 'C0OPS');
    await pacer.take('chat.postMessage', 'C0ALERTS');
    expect(clock.now()).toBe(0);
  });

  it('never lets more than 50 chat.update calls into any minute (Tier 3)', async () => {
    const times = await sendTimes('chat.update', 200);
    for (let i = 50; i < times.length; i++) expect(times[i]! - times[i - 50]!).toBeGreaterThanOrEqual(60_000);
  });

  it('never lets more than 100 views.publish calls into any minute (Tier 4): Homes refreshed for many people wait', async () => {
    const times = await sendTimes('views.publish', 300);
    expect(times.slice(0, 9)).toEqual(Array.from({ length: 9 }, () => 0));
    for (let i = 100; i < times.length; i++)
      expect(times[i]! - times[i - 100]!).toBeGreaterThanOrEqual(60_000);
  });

  it('does not hold back methods it has no rule for', async () => {
    expect(await sendTimes('auth.test', 100)).toEqual(Array.from({ length: 100 }, () => 0));
  });
});
