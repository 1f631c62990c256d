import type { Redis } from 'ioredis';
import {
  type ApprovalClick,
  type ApprovalRules,
  type ClickVerdict,
  decideApproval,
  requiredApprovalsOf,
} from '../lifecycle/approval/decide-approval.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { StoredApproval } from './ports/approval-announcer.js';
import type { RedisKeys } from './redis-keys.js';
import { replaceHashField } from './replace-hash-field.js';
import { whyDecideInThread } from './why-decide-in-thread.js';

export interface ClickTarget {
  readonly jobId: string;
  readonly stepId: string;
  readonly approvalId: string;
  /**
   * The message the button was on: a value copied onto another message does not count. Undefined
   * for a button on the clicker's App Home (a view the bot publishes for that person only).
   */
  readonly messageTs: string | undefined;
}

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
    if (!raw || !stored || stored.state.status === 'none' || stored.state.id !== target.approvalId) {
      return { verdict: { kind: 'refused', reason: 'this button does not match a pending approval' } };
    }
    // A request whose message never got posted (the post failed, its worker died) was seen by nobody.
    if (stored.messageTs === undefined) {
      return { verdict: { kind: 'refused', reason: 'its request was never shown in the job’s thread' } };
    }
    if (target.messageTs !== undefined && stored.messageTs !== target.messageTs) {
      return { verdict: { kind: 'refused', reason: 'this button does not belong to that approval' } };
    }
    const inThread = target.messageTs === undefined && click.decision === 'approve';
    const why = inThread ? whyDecideInThread(stored.request) : undefined;
    if (why) {
      return {
        verdict: {
          kind: 'refused',
          reason: `approve it in the job’s thread, where it is read whole: ${why}`,
        },
      };
    }
    const needed = { ...rules, requiredApprovals: requiredApprovalsOf(rules, stored.request) };
    const verdict = decideApproval(stored.state, stored.approvals ?? [], click, needed);
    const next = nextRecord(stored, verdict, click);
    if (!next) return { verdict, stored };
    if (await replaceHashField(redis, key, target.stepId, raw, JSON.stringify(next))) {
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

function nextRecord(
  stored: StoredApproval,
  verdict: ClickVerdict,
  click: ApprovalClick,
): StoredApproval | undefined {
  const state = stored.state;
  if (state.status !== 'pending') return undefined;
  const now = click.at;
  const approvedAt = { ...stored.approvedAt, [click.userId]: now };
  switch (verdict.kind) {
    case 'counted':
      return { ...stored, approvals: verdict.approvals, approvedAt };
    case 'approved':
      return {
        ...stored,
        approvals: verdict.approvals,
        approvedAt,
        decidedAt: now,
        state: { status: 'approved', id: state.id, fingerprint: state.fingerprint, by: verdict.approvals },
      };
    case 'rejected':
      return { ...stored, decidedAt: now, state: { status: 'rejected', id: state.id, by: verdict.by } };
    default:
      return undefined;
  }
}
