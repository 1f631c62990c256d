import type { Redis } from 'ioredis';
import type { ApprovalClick, ApprovalRules, ClickVerdict } from '../lifecycle/approval/decide-approval.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import { applyApprovalClick, type ClickTarget } from './apply-approval-click.js';
import type { StoredApproval } from './ports/approval-announcer.js';
import type { RedisKeys } from './redis-keys.js';
import { replaceHashField } from './replace-hash-field.js';

// Each lost race means another click changed the record; only a crowd of approvers gets this far.
const MAX_TRIES = 10;
// The request is saved, then posted, then its message's ts is saved: a click that comes as the
// message appears (a quick approver, a slow Redis write) waits this long for the ts to be known.
const ANNOUNCE_WAIT_MS = 5_000;
const ANNOUNCE_POLL_MS = 20;

/**
 * Applies one click to the stored approval atomically: the rules decide on the record as read, and
 * the new record is written only if the stored one is still exactly that (else read and decide
 * again). So two approvers clicking at once are both counted, a decision lands exactly once, and a
 * click that lost to a Reject (or came after the expiry) is refused. Returns the verdict and the
 * new record.
 */
export async function recordApprovalClick(
  redis: Redis,
  keys: RedisKeys,
  target: ClickTarget,
  click: ApprovalClick,
  rules: ApprovalRules,
  clock: Clock,
): Promise<{ verdict: ClickVerdict; stored?: StoredApproval }> {
  const key = keys.approvals(target.jobId);
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const raw = await readAnnounced(redis, key, target.stepId, clock);
    const stored = raw ? (JSON.parse(raw) as StoredApproval) : undefined;
    const { verdict, ruled, next } = applyApprovalClick(stored, target, click, rules);
    if (!ruled) return { verdict };
    if (!next) return { verdict, stored: ruled };
    if (await replaceHashField(redis, key, target.stepId, raw!, JSON.stringify(next))) {
      return { verdict, stored: next };
    }
  }
  return { verdict: { kind: 'refused', reason: 'too many simultaneous clicks, please click again' } };
}

/** The stored approval, once a pending one has its message's ts (or the wait is over). */
async function readAnnounced(
  redis: Redis,
  key: string,
  stepId: string,
  clock: Clock,
): Promise<string | null> {
  const deadline = clock.now() + ANNOUNCE_WAIT_MS;
  for (;;) {
    const raw = await redis.hget(key, stepId);
    const stored = raw ? (JSON.parse(raw) as StoredApproval) : undefined;
    const announcing = stored?.state.status === 'pending' && stored.messageTs === undefined;
    if (!announcing || clock.now() >= deadline) return raw;
    await clock.sleep(ANNOUNCE_POLL_MS);
  }
}
