import { checkAccess } from '../access/access-policy.js';
import { operableClusters } from '../access/operable-clusters.js';
import type { Actor } from './cluster-service.js';
import type { Refusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/** What a read may show a person: the clusters they operate, and whether that is every cluster. */
export interface ReadScope {
  readonly clusters: readonly string[];
  readonly all: boolean;
}

/**
 * The clusters a read shows this person, checked per cluster: after the bot's own access check
 * (channel, operator of something), only those whose operators they are. Someone who passes the
 * first check but operates no cluster (only in `access.operators`, which every cluster overrides)
 * is told so (NO_CLUSTERS) rather than shown an empty page.
 */
export async function readableClusters(deps: ServiceDeps, actor: Actor): Promise<ReadScope | Refusal> {
  const denied = await checkAccess(deps.world, deps.members, actor);
  if (denied) return denied;
  const clusters = await operableClusters(deps.world, deps.members, actor.userId);
  if (clusters.length === 0) return { code: 'NO_CLUSTERS', user: actor.userId };
  return { clusters, all: clusters.length === Object.keys(deps.world.clusters).length };
}
