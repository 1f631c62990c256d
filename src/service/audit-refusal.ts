import type { AuditAction } from '../jobs/audit-log.js';
import type { Actor } from './cluster-service.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/** A refusal for want of rights: who was refused, and on which cluster. */
export type RightsRefusal = Extract<
  Refusal,
  { readonly code: 'WRONG_CHANNEL' | 'NOT_OPERATOR' | 'NO_CLUSTERS' | 'NOT_CANCELLER' }
>;

const RIGHTS: ReadonlySet<string> = new Set<RightsRefusal['code']>([
  'WRONG_CHANNEL',
  'NOT_OPERATOR',
  'NO_CLUSTERS',
  'NOT_CANCELLER',
]);

export function isRightsRefusal(refusal: Refusal): refusal is RightsRefusal {
  return RIGHTS.has(refusal.code);
}

/** What the audit keeps of a request: enough to tell it, not a whole 64 kB body. */
const WHAT_MAX = 200;

/**
 * Records that a person was refused for want of rights (who, what they asked, when, on which
 * cluster), as facts; `/cluster audit` words them. Callers audit only what they admitted first
 * (the rate limit), so a flood of refused commands cannot push the rest out of the capped trail.
 */
export async function auditRefusal(
  deps: ServiceDeps,
  actor: Actor,
  action: Extract<AuditAction, 'refused' | 'click-refused'>,
  asked: string,
  refusal: RightsRefusal,
  jobId?: string,
): Promise<void> {
  const what = asked.length > WHAT_MAX ? `${asked.slice(0, WHAT_MAX - 1)}…` : asked;
  await deps.audit.record({
    at: deps.clock.now(),
    who: actor.userId,
    action,
    what: `${what}: ${reasonOf(refusal, actor)}`,
    cluster: 'cluster' in refusal ? refusal.cluster : undefined,
    jobId,
  });
}

function reasonOf(refusal: RightsRefusal, actor: Actor): string {
  switch (refusal.code) {
    case 'WRONG_CHANNEL':
      return `not accepted in channel ${refusal.channel}`;
    case 'NOT_OPERATOR':
      return refusal.cluster ? `not an operator of ${refusal.cluster}` : 'not an operator';
    case 'NO_CLUSTERS':
      return 'operates no cluster';
    case 'NOT_CANCELLER':
      return `${actor.userId} is neither the requester nor an approver of ${refusal.cluster} (job #${refusal.number})`;
  }
}
