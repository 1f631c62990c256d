import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedisApprovalDesk } from '../../src/jobs/create-redis-approval-desk.js';
import type { ApprovalAnnouncer, StoredApproval } from '../../src/jobs/ports/approval-announcer.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { CILIUM_REQUEST } from '../support/cilium-approval-request.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const REQUEST = CILIUM_REQUEST;

let redis: Redis;
let prefix: ReturnType<typeof uniquePrefix>;
beforeEach(() => {
  redis = new Redis(REDIS_URL);
  prefix = uniquePrefix('approval-desk');
});
afterEach(async () => {
  redis.disconnect();
  await prefix.cleanup();
});

function deskShowingIn(shown: string[]) {
  let posts = 0;
  const announcer: ApprovalAnnouncer = {
    async announce(_jobId, approvalId) {
      shown.push(approvalId);
      posts += 1;
      return `1700000000.00000${posts}`;
    },
    async remind() {},
    async close() {},
  };
  return createRedisApprovalDesk(redis, redisKeys(prefix.prefix), 'job-7', 60_000, Date.now, announcer);
}

describe('the Redis approval desk', () => {
  it('a pending approval whose message was never posted (the run died in between) is shown on the next look, once', async () => {
    const keys = redisKeys(prefix.prefix);
    // What a run that died after saving the request, before Slack answered, leaves behind.
    const pending = {
      status: 'pending',
      id: 'job-7.2-cilium.abc',
      fingerprint: 'f1',
      expiresAt: Date.now() + 60_000,
    };
    await redis.hset(
      keys.approvals('job-7'),
      '2-cilium',
      JSON.stringify({ state: pending, request: REQUEST, approvals: [] }),
    );
    const shown: string[] = [];
    const desk = deskShowingIn(shown);

    expect(await desk.state('2-cilium')).toEqual(pending);
    expect(await desk.state('2-cilium')).toEqual(pending);

    expect(shown).toEqual(['job-7.2-cilium.abc']);
    const stored = JSON.parse((await redis.hget(keys.approvals('job-7'), '2-cilium'))!) as StoredApproval;
    expect(stored.messageTs).toBe('1700000000.000001');
  });

  it('a request is shown once and its message remembered', async () => {
    const shown: string[] = [];
    const desk = deskShowingIn(shown);
    const { id } = await desk.request(REQUEST);

    expect(await desk.state('2-cilium')).toMatchObject({ status: 'pending', id });
    expect(shown).toEqual([id]);
  });

  it('reminds the approvers of a pending request at most twice, each reminder once, and says when to wake next', async () => {
    let at = Date.UTC(2026, 11, 2, 6, 0);
    const reminders: { stepTitle: string; at: number; expiresAt: number }[] = [];
    const announcer: ApprovalAnnouncer = {
      announce: async () => '1700000000.000001',
      async remind(_jobId, stored, when) {
        reminders.push({ stepTitle: stored.request!.stepTitle, ...when });
      },
      async close() {},
    };
    const desk = createRedisApprovalDesk(
      redis,
      redisKeys(prefix.prefix),
      'job-7',
      30 * 60_000,
      () => at,
      announcer,
    );
    const start = at;
    const { expiresAt } = await desk.request(REQUEST);

    expect(await desk.remind('2-cilium')).toBe(start + 15 * 60_000);
    expect(reminders).toEqual([]);
    at = start + 15 * 60_000;
    expect(await desk.remind('2-cilium')).toBe(start + 25 * 60_000);
    expect(await desk.remind('2-cilium')).toBe(start + 25 * 60_000);
    expect(reminders).toEqual([{ stepTitle: 'cilium.yml', at, expiresAt }]);
    // A worker that wakes late, past both, sends one reminder, not two.
    at = start + 28 * 60_000;
    expect(await desk.remind('2-cilium')).toBe(expiresAt);
    expect(await desk.remind('2-cilium')).toBe(expiresAt);
    expect(reminders).toHaveLength(2);
  });

  it('sends no reminder for a request already decided', async () => {
    const reminders: string[] = [];
    const desk = createRedisApprovalDesk(redis, redisKeys(prefix.prefix), 'job-7', 60_000, Date.now, {
      announce: async () => '1700000000.000001',
      remind: async (jobId) => void reminders.push(jobId),
      close: async () => undefined,
    });
    const { id } = await desk.request(REQUEST);
    await desk.expire(id);
    expect(await desk.remind('2-cilium')).toBeUndefined();
    expect(reminders).toEqual([]);
  });
});
