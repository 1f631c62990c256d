import { describe, expect, it } from 'vitest';
import { createSharedSlackPacer } from '../../src/delivery/create-shared-slack-pacer.js';
import type { RateBudget } from '../../src/delivery/rate-budget.js';
import { captureLogger } from '../support/capture-logger.js';
import { createInstantClock } from '../support/manual-clock.js';

/** A budget that answers as told, recording what it was asked. */
function scriptedBudget(answer: () => Promise<number>) {
  const asked: string[] = [];
  const budget: RateBudget = {
    take(name) {
      asked.push(name);
      return answer();
    },
  };
  return { budget, asked };
}

/** The pacer on an instant clock; Redis's answer is awaited 50 ms of real time, not a second. */
function pacerOver(budget: RateBudget) {
  const clock = createInstantClock(0);
  const log = captureLogger((text) => text);
  return { pacer: createSharedSlackPacer(budget, clock, log.logger, 50), clock, lines: log.lines };
}

describe('Slack pacer over the shared budget', () => {
  it('waits as long as the budget says, asking per channel for posts and per workspace for updates', async () => {
    const { budget, asked } = scriptedBudget(async () => 700);
    const { pacer, clock } = pacerOver(budget);
    await pacer.take('chat.postMessage', 'C0OPS');
    await pacer.take('chat.update');
    expect(clock.now()).toBe(1_400);
    expect(asked).toEqual(['chat.postMessage:C0OPS', 'chat.update']);
  });

  it('does not ask about methods Slack does not limit here', async () => {
    const { budget, asked } = scriptedBudget(async () => 700);
    const { pacer, clock } = pacerOver(budget);
    await pacer.take('auth.test');
    expect([clock.now(), asked]).toEqual([0, []]);
  });

  it('when Redis does not answer, paces this process alone after the deadline, says so, and asks again 5 s later', async () => {
    const { budget, asked } = scriptedBudget(() => new Promise<number>(() => undefined));
    const { pacer, clock, lines } = pacerOver(budget);
    await pacer.take('chat.postMessage', 'C0OPS');
    expect(lines.join('')).toContain('Slack budget in Redis unreachable: pacing this process alone');
    // Meanwhile the local pacer alone: that post and the next at once, the third about a second later.
    for (let i = 0; i < 2; i++) await pacer.take('chat.postMessage', 'C0OPS');
    expect(clock.now()).toBeGreaterThanOrEqual(1_000);
    expect(clock.now()).toBeLessThan(1_100);
    expect(asked).toHaveLength(1);
    clock.advance(5_000);
    await pacer.take('chat.update');
    expect(asked).toEqual(['chat.postMessage:C0OPS', 'chat.update']);
  });

  it('an answer that arrived while this process was stalled past the deadline is used, not the local pacer', async () => {
    // The reply is waiting as I/O when the stalled process wakes, after the deadline has expired.
    const { budget } = scriptedBudget(
      () => new Promise<number>((resolve) => setImmediate(() => resolve(700))),
    );
    const { pacer, clock, lines } = pacerOver(budget);
    // Asked from a check-phase callback, so the expired deadline's timer comes before the reply.
    const taking = await new Promise<Promise<void>>((started) =>
      setImmediate(() => {
        const take = pacer.take('chat.postMessage', 'C0OPS');
        const stalledUntil = Date.now() + 100;
        while (Date.now() < stalledUntil) {
          // The event loop held past the 50 ms deadline, as a starved process is.
        }
        started(take);
      }),
    );
    await taking;
    expect(lines.join('')).not.toContain('unreachable');
    expect(clock.now()).toBe(700);
  });

  it('when the budget fails outright, paces the call locally at once', async () => {
    const { budget } = scriptedBudget(() => Promise.reject(new Error('Connection is closed.')));
    const { pacer, clock, lines } = pacerOver(budget);
    await pacer.take('views.publish');
    expect(clock.now()).toBe(0);
    expect(lines.join('')).toContain('Connection is closed.');
  });
});
