import type { Claims, FollowUpKind } from '../../src/service/ports/claims.js';

const CLAIM_MS = 60_000;
const HELD_MS = 30 * 24 * 3_600_000;

/**
 * What may happen once, in memory: the deliveries seen (shared with the memory rate limit, as
 * Redis's dedup keys are) and the follow-ups claimed, each lapsing as its Redis key would.
 */
export function createMemoryClaims(deliveries: Set<string>, now: () => number) {
  const followUps = new Map<string, { readonly jobId: string | undefined; readonly until: number }>();
  const claims: Claims = {
    async firstDelivery(key) {
      if (deliveries.has(key)) return false;
      deliveries.add(key);
      return true;
    },
    async claimFollowUp(kind, jobId) {
      const held = followUps.get(`${kind}:${jobId}`);
      if (held && held.until > now()) return { jobId: held.jobId };
      followUps.set(`${kind}:${jobId}`, { jobId: undefined, until: now() + CLAIM_MS });
      return undefined;
    },
    async settleFollowUp(kind: FollowUpKind, jobId, followUpJobId) {
      if (followUpJobId === undefined) followUps.delete(`${kind}:${jobId}`);
      else followUps.set(`${kind}:${jobId}`, { jobId: followUpJobId, until: now() + HELD_MS });
    },
  };
  return { claims };
}
