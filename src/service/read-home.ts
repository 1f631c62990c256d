import { checkAccess } from '../access/access-policy.js';
import type { AlertState } from '../jobs/compare-gate-alerts.js';
import type { Actor, ClusterService, OpenAlert } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
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
      overviews.map(async (overview) => {
        const cluster = world.clusters[overview.cluster]!;
        const queued = await Promise.all(
          overview.waiting.map(async (id) => {
            const record = await deps.records.get(id);
            return record ? summariseJob(record, deps.threads) : { id };
          }),
        );
        return {
          ...overview,
          approvals: await readPendingApprovals(deps, overview, actor.userId),
          queued,
          alerts: await readOpenAlerts(deps, overview.cluster),
          approvers: cluster.approvers,
          requiredApprovals: cluster.requiredApprovals,
        };
      }),
    ),
  };
}

/** The gates the scheduled verify alerted on and has not yet seen pass again. */
async function readOpenAlerts(deps: ServiceDeps, cluster: string): Promise<OpenAlert[]> {
  const raw = await deps.redis.get(deps.keys.verifyAlerts(cluster));
  const state = raw ? (JSON.parse(raw) as AlertState) : {};
  return Object.entries(state).map(([gate, alert]) => ({ gate, ...alert }));
}
