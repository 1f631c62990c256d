// Ordinary output names a few secrets in one line: an ansible task's argv, a kubectl or helm flag
// list, a JSON result whose first secret key masks the rest of the line anyway. Even ansible's `-v`
// result of a whole loop stays well under this; only a line built to make the redactor work per
// match (`--token --token …`, `a://b:c@a://b:c@…`) gets past it.
export const MAX_MATCHES_PER_LINE = 32;

/** Thrown where a line had more secret-shaped matches than it may: the rest is masked unread. */
export class MatchLimitReached extends Error {
  constructor(readonly at: number) {
    super(`more than ${MAX_MATCHES_PER_LINE} secret-shaped matches in one line`);
  }
}

/**
 * Counts the matches one step of the redactor reads in a line, each decided in code (a key, a
 * BEGIN, a URL, a JWT): `take(at)` throws MatchLimitReached at the first match past the limit.
 */
export interface MatchBudget {
  take(at: number): void;
}

/** No limit: for a text already cut where the limit was reached, and for reads bounded by size. */
export const UNLIMITED: MatchBudget = { take() {} };

export function matchBudget(limit = MAX_MATCHES_PER_LINE): MatchBudget {
  let left = limit;
  return {
    take(at) {
      if (left-- <= 0) throw new MatchLimitReached(at);
    },
  };
}
