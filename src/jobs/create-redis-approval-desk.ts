import type { ChainableCommander, Redis } from 'ioredis';
import type { ApprovalDesk, ApprovalState } from '../lifecycle/ports/approval-desk.js';
import { approvalId } from './approval-id.js';
import { approvalReminderTimes } from './approval-reminder-times.js';
import { type CommandBatch, createCommandBatch } from './command-batch.js';
import type { ApprovalAnnouncer, StoredApproval } from './ports/approval-announcer.js';
import { readStoredApprovals, type StoredApprovalEntry } from './read-stored-approvals.js';
import type { RedisKeys } from './redis-keys.js';
import { queueReplaceHashFields, replaceHashField } from './replace-hash-field.js';

export interface RedisApprovalDesk extends ApprovalDesk {
  /**
   * Voids the open approvals (when the job ends, a late click then changes nothing) as the first
   * command of the caller's transaction. Call the returned function with that command's result
   * once the transaction has landed: it tells the approvers, and closes again any approval a click
   * decided in the meantime.
   */
  queueClosePending(multi: ChainableCommander, reason: string): Promise<(lost: unknown) => Promise<void>>;
  /**
   * Sends the reminders of a step's pending request that are due, each at most once (the count is
   * written before the message goes: a crash in between loses a reminder rather than repeating
   * one), and answers when the job should wake next: the next reminder, or the expiry.
   */
  remind(stepId: string): Promise<number | undefined>;
}

/**
 * Approvals of one job, one Redis hash field per step: the latest request and its state. The read
 * before the job's ending goes through the worker's `batch`, with the ending's page event.
 */
// Long only as a whole: short methods sharing the job's approvals hash and its scripts.
export function createRedisApprovalDesk(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
  timeoutMs: number,
  now: () => number,
  announcer: ApprovalAnnouncer,
  batch: CommandBatch = createCommandBatch(redis),
): RedisApprovalDesk {
  const key = keys.approvals(jobId);
  const findById = async (id: string): Promise<StoredApprovalEntry | undefined> =>
    (await readStoredApprovals(redis, keys, jobId)).find(
      ({ stored }) => stored.state.status !== 'none' && stored.state.id === id,
    );
  // Written only over the record as read, so a click deciding at the same moment is not lost:
  // the loser reads again (and a click then finds it closed).
  const close = async (id: string, status: 'expired' | 'void', reason: string) => {
    for (;;) {
      const found = await findById(id);
      if (!found) return;
      const { stepId, raw, stored } = found;
      const next: StoredApproval = { ...stored, state: { status, id } };
      if (await replaceHashField(redis, key, stepId, raw, JSON.stringify(next))) {
        await announcer.close(jobId, next, reason);
        return;
      }
    }
  };
  // A run that died between saving a request and saving its message's ts left a pending approval
  // nobody was shown: the job would wait for a click that cannot come. Its next run shows it.
  const showIfNeverShown = async (stepId: string): Promise<ApprovalState> => {
    const raw = await redis.hget(key, stepId);
    const stored = raw ? (JSON.parse(raw) as StoredApproval) : undefined;
    if (!raw || !stored) return { status: 'none' };
    const { state, request } = stored;
    if (state.status !== 'pending' || stored.messageTs !== undefined || !request) return state;
    const messageTs = await announcer.announce(jobId, state.id, request, state.expiresAt);
    await replaceHashField(redis, key, stepId, raw, JSON.stringify({ ...stored, messageTs }));
    return state;
  };
  return {
    state: showIfNeverShown,
    async request(request) {
      const id = approvalId(jobId, request.stepId, now());
      const expiresAt = now() + timeoutMs;
      const pending: ApprovalState = {
        status: 'pending',
        id,
        fingerprint: request.binding.fingerprint,
        expiresAt,
      };
      const stored: StoredApproval = { state: pending, request, approvals: [], requestedAt: now() };
      await redis.hset(key, request.stepId, JSON.stringify(stored));
      const messageTs = await announcer.announce(jobId, id, request, expiresAt);
      await redis.hset(key, request.stepId, JSON.stringify({ ...stored, messageTs }));
      return { id, expiresAt };
    },
    async remind(stepId) {
      for (;;) {
        const raw = await redis.hget(key, stepId);
        const stored = raw ? (JSON.parse(raw) as StoredApproval) : undefined;
        if (!raw || stored?.state.status !== 'pending') return undefined;
        const { expiresAt } = stored.state;
        const times = approvalReminderTimes(stored.requestedAt ?? expiresAt - timeoutMs, expiresAt);
        const due = times.filter((at) => at <= now()).length;
        const reminded = stored.reminded ?? 0;
        const next = times.find((at) => at > now()) ?? expiresAt;
        if (due <= reminded || stored.messageTs === undefined) return next;
        // Lost to a click or another run: read again.
        if (
          !(await replaceHashField(redis, key, stepId, raw, JSON.stringify({ ...stored, reminded: due })))
        ) {
          continue;
        }
        await announcer.remind(jobId, stored, { expiresAt, at: now() });
        return next;
      }
    },
    async queueClosePending(multi, reason) {
      const [all] = (await batch.send((pipeline) => pipeline.hgetall(key))) as [Record<string, string>];
      const voided = Object.entries(all).flatMap(([field, expected]) => {
        const stored = JSON.parse(expected) as StoredApproval;
        if (stored.state.status !== 'pending') return [];
        const { id } = stored.state;
        const next: StoredApproval = { ...stored, state: { status: 'void', id } };
        return [{ field, expected, next: JSON.stringify(next), id, stored: next }];
      });
      queueReplaceHashFields(multi, key, voided);
      return async (lost) => {
        for (const { field, id, stored } of voided) {
          if ((lost as string[]).includes(field)) await close(id, 'void', reason);
          else await announcer.close(jobId, stored, reason);
        }
      };
    },
    expire: (id) => close(id, 'expired', 'approval expired'),
    void: (id, reason) => close(id, 'void', reason),
  };
}
