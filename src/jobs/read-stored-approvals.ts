import type { Redis } from 'ioredis';
import type { StoredApproval } from './ports/approval-announcer.js';
import type { RedisKeys } from './redis-keys.js';

/** One step's approval as stored: its hash field, the raw value (for a compare-and-set) and its parse. */
export interface StoredApprovalEntry {
  readonly stepId: string;
  readonly raw: string;
  readonly stored: StoredApproval;
}

/** A job's approvals, one per step that asked: the one reader of the approvals hash. */
export async function readStoredApprovals(
  redis: Redis,
  keys: RedisKeys,
  jobId: string,
): Promise<StoredApprovalEntry[]> {
  const all = await redis.hgetall(keys.approvals(jobId));
  return Object.entries(all).map(([stepId, raw]) => ({
    stepId,
    raw,
    stored: JSON.parse(raw) as StoredApproval,
  }));
}
