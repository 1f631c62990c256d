import { isJobId } from '../jobs/ports/job-id.js';
import type { Submitted } from './cluster-service.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/** As long as an ended job's thread is worth clicking in. */
const CLAIM_SECONDS = 30 * 24 * 3_600;

/**
 * One follow-up job per ended job (its Cilium rollback, its re-run): a small key claimed with SET
 * NX, so of two clicks or commands at once only one passes, then holding the follow-up's job id.
 * `claim` answers undefined when this caller holds it, else who does: the follow-up's number, or
 * undefined as a number while the other's submit is still under way. `settle` keeps the job's id,
 * or lets the claim go when the submit was refused (it queued nothing: the offer stays usable).
 */
export function followUpClaim(deps: Pick<ServiceDeps, 'redis' | 'records'>, key: string) {
  return {
    async claim(): Promise<{ readonly number: number | undefined } | undefined> {
      if ((await deps.redis.set(key, 'claimed', 'EX', CLAIM_SECONDS, 'NX')) !== null) return undefined;
      const id = await deps.redis.get(key);
      const record = id && isJobId(id) ? await deps.records.get(id) : undefined;
      return { number: record?.number };
    },
    async settle(submitted: Submitted | Refusal): Promise<void> {
      if (isRefusal(submitted)) await deps.redis.del(key);
      else await deps.redis.set(key, submitted.jobId, 'EX', CLAIM_SECONDS);
    },
  };
}
