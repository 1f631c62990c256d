import { checkAccess } from '../access/access-policy.js';
import type { Actor, ClusterService } from './cluster-service.js';
import { readClusterOverviews } from './read-cluster-overview.js';
import { readPendingApprovals } from './read-pending-approvals.js';
import type { ServiceDeps } from './service-deps.js';

/** Every cluster at a glance for one person: who holds it, what waits, and which approvals are theirs to give. */
export async function readHome(deps: ServiceDeps, actor: Actor): ReturnType<ClusterService['home']> {
  const { world } = deps;
  const denied = await checkAccess(world, deps.members, actor);
  if (denied) return denied;
  const overviews = await readClusterOverviews(deps, Object.keys(world.clusters));
  return {
    kind: 'home',
    clusters: await Promise.all(
      overviews.map(async (overview) => ({
        ...overview,
        approvals: await readPendingApprovals(deps, overview, actor.userId),
      })),
    ),
  };
}
