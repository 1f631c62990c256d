import type { Redis } from 'ioredis';
import type { ApprovalClick, ApprovalRules } from '../lifecycle/approval/decide-approval.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { ClickTarget } from './apply-approval-click.js';
import { readStoredApprovals } from './read-stored-approvals.js';
import { recordApprovalClick } from './record-approval-click.js';
import type { RedisKeys } from './redis-keys.js';

/** The jobs' approvals as the service reads and decides them, in each job's approvals hash. */
export function createRedisApprovalBook(redis: Redis, keys: RedisKeys) {
  return {
    read: (jobId: string) => readStoredApprovals(redis, keys, jobId),
    applyClick: (target: ClickTarget, click: ApprovalClick, rules: ApprovalRules, clock: Clock) =>
      recordApprovalClick(redis, keys, target, click, rules, clock),
  };
}
