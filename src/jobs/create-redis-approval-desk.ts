import type { Redis } from 'ioredis';
import type { ApprovalDesk, ApprovalState } from '../lifecycle/ports/approval-desk.js';
import type { ApprovalAnnouncer, StoredApproval } from './ports/approval-announcer.js';
import type { RedisKeys } from './redis-keys.js';
import { replaceHashField } from './replace-hash-field.js';

/** An approval's id names its job and step, so a click finds the record; the time makes it unique. */
export function approvalId(jobId: string, stepId: string, at: number): string {
  return `${jobId}.${stepId}.${at.toString(36)}`;
}

export function parseApprovalId(id: string): { jobId: string; stepId: string } | undefined {
  const match = /^(job-\d+)\.([a-z0-9-]+)\.[a-z0-9]+$/.exec(id);
  return match ? { jobId: match[1]!, stepId: match[2]! } : undefined;
}

/** Approvals of one job, one Redis hash field per step: the latest request and its state. */
export function createRedisApprovalDesk(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  timeoutMs: number,
  now: () => number,
  announcer: ApprovalAnnouncer,
): ApprovalDesk & { closePending(reason: string): Promise<void> } {
  const key = keys.approvals(jobId);
  const read = async (stepId: string): Promise<StoredApproval | undefined> => {
    const raw = await redis.hget(key, stepId);
    return raw ? (JSON.parse(raw) as StoredApproval) : undefined;
  };
  const findById = async (id: string): Promise<[string, string, StoredApproval] | undefined> => {
    const all = await redis.hgetall(key);
    for (const [stepId, raw] of Object.entries(all)) {
      const stored = JSON.parse(raw) as StoredApproval;
      if (stored.state.status !== 'none' && stored.state.id === id) return [stepId, raw, stored];
    }
    return undefined;
  };
  // Written only over the record as read, so a click deciding at the same moment is not lost:
  // the loser reads again (and a click then finds it closed).
  const close = async (id: string, status: 'expired' | 'void', reason: string) => {
    for (;;) {
      const found = await findById(id);
      if (!found) return;
      const [stepId, raw, stored] = found;
      const next: StoredApproval = { ...stored, state: { status, id } };
      if (await replaceHashField(redis, key, stepId, raw, JSON.stringify(next))) {
        await announcer.close(jobId, next, reason);
        return;
      }
    }
  };
  return {
    async state(stepId) {
      return (await read(stepId))?.state ?? { status: 'none' };
    },
    async request(request) {
      const id = approvalId(jobId, request.stepId, now());
      const expiresAt = now() + timeoutMs;
      const pending: ApprovalState = {
        status: 'pending',
        id,
        fingerprint: request.binding.fingerprint,
        expiresAt,
      };
      await redis.hset(key, request.stepId, JSON.stringify({ state: pending, request, approvals: [] }));
      const messageTs = await announcer.announce(jobId, id, request, expiresAt);
      await redis.hset(
        key,
        request.stepId,
        JSON.stringify({ state: pending, request, approvals: [], messageTs }),
      );
      return { id, expiresAt };
    },
    /** When a job ends, its open approvals end with it: a late click then changes nothing. */
    async closePending(reason) {
      for (const raw of Object.values(await redis.hgetall(key))) {
        const stored = JSON.parse(raw) as StoredApproval;
        if (stored.state.status === 'pending') await close(stored.state.id, 'void', reason);
      }
    },
    expire: (id) => close(id, 'expired', 'approval expired'),
    void: (id, reason) => close(id, 'void', reason),
  };
}
