import type { Submitted } from './cluster-service.js';
import type { FollowUpKind } from './ports/claims.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * One follow-up job per ended job (its Cilium rollback, its re-run): of two clicks or commands at
 * once only one passes. `claim` answers undefined when this caller holds it, else who does: the
 * follow-up's number, or undefined as a number while the other's submit is still under way.
 * `settle` keeps the follow-up's job id, or lets the claim go when the submit was refused (it
 * queued nothing: the offer stays usable).
 */
export function followUpClaim(
  deps: Pick<ServiceDeps, 'claims' | 'records'>,
  kind: FollowUpKind,
  jobId: string,
) {
  return {
    async claim(): Promise<{ readonly number: number | undefined } | undefined> {
      const held = await deps.claims.claimFollowUp(kind, jobId);
      if (!held) return undefined;
      const record = held.jobId === undefined ? undefined : await deps.records.get(held.jobId);
      return { number: record?.number };
    },
    async settle(submitted: Submitted | Refusal): Promise<void> {
      await deps.claims.settleFollowUp(kind, jobId, isRefusal(submitted) ? undefined : submitted.jobId);
    },
  };
}
