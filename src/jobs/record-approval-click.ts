import type { Redis } from 'ioredis';
import type { ApprovalClick, ApprovalRules, ClickVerdict } from '../lifecycle/approval/decide-approval.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import { applyApprovalClick, type ClickTarget } from './apply-approval-click.js';
import type { StoredApproval } from './ports/approval-announcer.js';
import { readAnnouncedApproval } from './read-announced-approval.js';
import type { RedisKeys } from './redis-keys.js';
import { replaceHashField } from './replace-hash-field.js';

// Each lost race means another click changed the record; only a crowd of approvers gets this far.
const MAX_TRIES = 10;

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
    const { raw, stored } = await readAnnouncedApproval(async () => {
      const field = await redis.hget(key, target.stepId);
      return { raw: field, stored: field ? (JSON.parse(field) as StoredApproval) : undefined };
    }, clock);
    const { verdict, ruled, next } = applyApprovalClick(stored, target, click, rules);
    if (!ruled) return { verdict };
    if (!next) return { verdict, stored: ruled };
    if (await replaceHashField(redis, key, target.stepId, raw!, JSON.stringify(next))) {
      return { verdict, stored: next };
    }
  }
  return { verdict: { kind: 'refused', reason: 'too many simultaneous clicks, please click again' } };
}
