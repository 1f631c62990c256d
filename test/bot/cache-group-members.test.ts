import { describe, expect, it } from 'vitest';
import { isMember } from '../../src/access/access-policy.js';
import { cacheGroupMembers } from '../../src/bot/cache-group-members.js';
import { createInstantClock } from '../support/manual-clock.js';

describe('user group members, cached for a minute', () => {
  it('answers a burst of commands with one look-up per group, and looks again after 60 s', async () => {
    const clock = createInstantClock();
    const asked: string[] = [];
    const members = cacheGroupMembers(async (groupId) => {
      asked.push(groupId);
      return ['U0DAVE'];
    }, clock.now);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => isMember(`U0STRANGER${i}`, ['U0ALICE', 'S0PLATFORM'], members)),
    );
    expect(answers.every((answer) => answer === false)).toBe(true);
    expect(await isMember('U0DAVE', ['S0PLATFORM'], members)).toBe(true);
    expect(asked).toEqual(['S0PLATFORM']);
    clock.advance(59_999);
    await members('S0PLATFORM');
    expect(asked).toHaveLength(1);
    clock.advance(1);
    await members('S0PLATFORM');
    expect(asked).toEqual(['S0PLATFORM', 'S0PLATFORM']);
  });

  it('does not remember a failed look-up', async () => {
    const clock = createInstantClock();
    let calls = 0;
    const members = cacheGroupMembers(async () => {
      calls += 1;
      if (calls === 1) throw new Error('ratelimited');
      return ['U0DAVE'];
    }, clock.now);
    await expect(members('S0PLATFORM')).rejects.toThrow('ratelimited');
    expect(await members('S0PLATFORM')).toEqual(['U0DAVE']);
    expect(calls).toBe(2);
  });
});
