import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordApprovalClick } from '../../src/jobs/record-approval-click.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import type { ApprovalRequest } from '../../src/lifecycle/ports/approval-desk.js';
import type { Clock } from '../../src/lifecycle/ports/clock.js';
import { CILIUM_REQUEST } from '../support/cilium-approval-request.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

let redis: Redis;
let prefix: ReturnType<typeof uniquePrefix>;
beforeEach(() => {
  redis = new Redis(REDIS_URL);
  prefix = uniquePrefix('approval-click');
});
afterEach(async () => {
  redis.disconnect();
  await prefix.cleanup();
});

/** A clock whose sleeps pass at once: only its own time moves. */
function instantClock(start: number): Clock & { slept: number } {
  let now = start;
  return {
    slept: 0,
    now: () => now,
    async sleep(ms) {
      this.slept += ms;
      now += ms;
    },
  };
}

const START = Date.UTC(2026, 11, 2, 6, 0);
const MESSAGE_TS = '1700000000.000002';

/** A request of `jobId` pending, shown on MESSAGE_TS; clicks on it by anyone, from a message or (undefined) the App Home. */
async function pendingApproval(
  jobId: string,
  request: Pick<ApprovalRequest, 'stepId' | 'stepTitle'> & Partial<ApprovalRequest>,
  requiredApprovals: number,
) {
  const keys = redisKeys(prefix.prefix);
  const approvalId = `${jobId}.${request.stepId}.abc`;
  const state = { status: 'pending', id: approvalId, fingerprint: 'f1', expiresAt: START + 60_000 };
  await redis.hset(
    keys.approvals(jobId),
    request.stepId,
    JSON.stringify({ state, request, approvals: [], messageTs: MESSAGE_TS }),
  );
  return (userId: string, decision: 'approve' | 'reject', messageTs: string | undefined) =>
    recordApprovalClick(
      redis,
      keys,
      { jobId, stepId: request.stepId, approvalId, messageTs },
      { userId, decision, isApprover: true, requestedBy: 'U0ALICE', at: START },
      { requiredApprovals, allowSelfApproval: false },
      instantClock(START),
    );
}

describe('an approval click', () => {
  it("waits for its approval's message on the injected clock: one never saved is refused after 5 s of that clock, from the thread or the App Home", async () => {
    const keys = redisKeys(prefix.prefix);
    const start = Date.UTC(2026, 11, 2, 6, 0);
    const approvalId = 'job-7.2-cilium.abc';
    // Saved, then posted: the post never came back, so the message's ts was never saved.
    const state = { status: 'pending', id: approvalId, fingerprint: 'f1', expiresAt: start + 60_000 };
    const saved = JSON.stringify({ state, approvals: [] });
    await redis.hset(keys.approvals('job-7'), '2-cilium', saved);
    // A thread button names some message; a Home button none. Nobody saw the request either way.
    for (const messageTs of ['1700000000.000001', undefined]) {
      const clock = instantClock(start);
      const { verdict } = await recordApprovalClick(
        redis,
        keys,
        { jobId: 'job-7', stepId: '2-cilium', approvalId, messageTs },
        { userId: 'U0BOB', decision: 'approve', isApprover: true, requestedBy: 'U0ALICE', at: start },
        { requiredApprovals: 1, allowSelfApproval: false },
        clock,
      );

      expect(verdict).toEqual({ kind: 'refused', reason: 'its request was never shown in the job’s thread' });
      expect(clock.slept).toBeGreaterThanOrEqual(5_000);
      expect(clock.now() - start).toBeLessThan(5_100);
      expect(await redis.hget(keys.approvals('job-7'), '2-cilium')).toBe(saved);
    }
  });

  it('a request to be read whole (a warning) is approved in its thread only; the App Home may still reject it', async () => {
    const warning =
      'This step was interrupted while running (its approval was used). Approve only if running it again is safe.';
    const click = await pendingApproval('job-9', { ...CILIUM_REQUEST, stepId: '4-cilium', warning }, 2);

    expect((await click('U0BOB', 'approve', undefined)).verdict).toEqual({
      kind: 'refused',
      reason: 'approve it in the job’s thread, where it is read whole: it carries a warning',
    });
    expect((await click('U0BOB', 'approve', MESSAGE_TS)).verdict).toEqual({
      kind: 'counted',
      approvals: ['U0BOB'],
      missing: 1,
    });
    expect((await click('U0BOB', 'reject', undefined)).verdict).toEqual({ kind: 'rejected', by: 'U0BOB' });
  });

  it("counts to the step's own minimum when it asks more than the cluster's count (a restore on production: two)", async () => {
    const request = { stepId: '2-approve-restore', stepTitle: 'approve the restore', minimumApprovals: 2 };
    const click = await pendingApproval('job-8', request, 1);
    const clickBy = (userId: string) => click(userId, 'approve', MESSAGE_TS);

    expect((await clickBy('U0BOB')).verdict).toEqual({ kind: 'counted', approvals: ['U0BOB'], missing: 1 });
    expect((await clickBy('U0BOB')).verdict).toMatchObject({ kind: 'already-counted', missing: 1 });
    expect((await clickBy('U0CAROL')).verdict).toEqual({ kind: 'approved', approvals: ['U0BOB', 'U0CAROL'] });
  });
});
