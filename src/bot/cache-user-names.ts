import { cacheLookUps } from './cache-look-ups.js';

/** A person's Slack name, or undefined when Slack has none for the id. */
export type UserName = (userId: string) => Promise<string | undefined>;

/** Names change rarely, and users.info is Tier 4: one answer per person serves an hour of page views. */
export const USER_NAME_TTL_MS = 3_600_000;
/** More people than a bot's operators and approvers ever are. */
const MAX_NAMES = 1_000;

/**
 * Remembers each person's name for an hour (one look-up in flight per person, however many pages
 * are opened), so a page view costs Slack nothing once its people are known. A failed look-up is
 * not remembered: the next view asks again.
 */
export function cacheUserNames(lookUp: UserName, now: () => number, ttlMs = USER_NAME_TTL_MS): UserName {
  return cacheLookUps(lookUp, now, ttlMs, MAX_NAMES);
}
