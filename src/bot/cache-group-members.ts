import type { GroupMembers } from '../service/index.js';

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
  const cache = new Map<string, { readonly at: number; readonly members: Promise<readonly string[]> }>();
  return (groupId) => {
    const cached = cache.get(groupId);
    if (cached && now() - cached.at < ttlMs) return cached.members;
    const members = lookUp(groupId);
    cache.set(groupId, { at: now(), members });
    members.catch(() => {
      if (cache.get(groupId)?.members === members) cache.delete(groupId);
    });
    return members;
  };
}
