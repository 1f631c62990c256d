import { isJobId } from '../jobs/ports/job-id.js';
import type { Submitted } from './cluster-service.js';
import { isRefusal, type Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/** As long as an ended job's thread is worth clicking in: how long a queued follow-up is held. */
const HELD_SECONDS = 30 * 24 * 3_600;

/**
 * A claim not yet settled: long enough for a submit under load, short enough that the bot killed
 * between the claim and the queue (it never settles) blocks the follow-up for a minute, not a month.
 */
const CLAIM_SECONDS = 60;

/**
 * One follow-up job per ended job (its Cilium rollback, its re-run): a small key claimed with SET
 * NX, so of two clicks or commands at once only one passes, then holding the follow-up's job id.
 * `claim` answers undefined when this caller holds it, else who does: the follow-up's number, or
 * undefined as a number while the other's submit is still under way. `settle` keeps the job's id
 * for as long as the thread is worth clicking in, or lets the claim go when the submit was refused
 * (it queued nothing: the offer stays usable).
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
      else await deps.redis.set(key, submitted.jobId, 'EX', HELD_SECONDS);
    },
  };
}
