import type { GroupMembers } from '../service/index.js';
import { cacheLookUps } from './cache-look-ups.js';

/** Slack's usergroups.users.list is Tier 2 (about 20 a minute): one answer serves a minute of commands. */
export const GROUP_MEMBERS_TTL_MS = 60_000;

/**
 * Remembers each user group's members for a minute (one look-up in flight per group, however many
 * commands arrive), so commands from anyone in the workspace cannot use up Slack's quota for the
 * look-up and lock operators out. A failed look-up is not remembered.
 */
export function cacheGroupMembers(
  lookUp: GroupMembers,
  now: () => number,
  ttlMs = GROUP_MEMBERS_TTL_MS,
): GroupMembers {
  return cacheLookUps(lookUp, now, ttlMs);
}
