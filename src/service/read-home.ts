import type { Actor, HomeAnswer, OpenAlert } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
import { readClusterOverviews } from './read-cluster-overview.js';
import { readPendingApprovals } from './read-pending-approvals.js';
import { readableClusters } from './readable-clusters.js';
import { isRefusal } from './refusal.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * The clusters each person operates at a glance: who holds it, what waits, and which approvals are
 * theirs to give; a cluster they may not operate is not shown, linked or offered a button. What
 * they share (the overviews, read from up to RECENT_KEPT job records) is read once however many
 * ask; only the choice of clusters and the approvals' "may you decide" are per person.
 */
export async function readHomes(deps: ServiceDeps, actors: readonly Actor[]): Promise<HomeAnswer[]> {
  const { world } = deps;
  const scopes = await Promise.all(actors.map((actor) => readableClusters(deps, actor)));
  if (scopes.every(isRefusal)) return scopes;
  const wanted = new Set(scopes.flatMap((scope) => (isRefusal(scope) ? [] : scope.clusters)));
  const names = Object.keys(world.clusters).filter((name) => wanted.has(name));
  const shared = await Promise.all(
    (await readClusterOverviews(deps, names)).map(async (overview) => {
      const cluster = world.clusters[overview.cluster]!;
      const queued = await Promise.all(
        overview.waiting.map(async (id) => {
          const record = await deps.records.get(id);
          return record ? summariseJob(record, deps.threads) : { id };
        }),
      );
      return {
        ...overview,
        queued,
        alerts: await readOpenAlerts(deps, overview.cluster),
        approvers: cluster.approvers,
        requiredApprovals: cluster.requiredApprovals,
      };
    }),
  );
  return Promise.all(
    actors.map(async (actor, index): Promise<HomeAnswer> => {
      const scope = scopes[index]!;
      if (isRefusal(scope)) return scope;
      return {
        kind: 'home',
        clusters: await Promise.all(
          shared
            .filter((cluster) => scope.clusters.includes(cluster.cluster))
            .map(async (cluster) => ({
              ...cluster,
              approvals: await readPendingApprovals(deps, cluster, actor.userId),
            })),
        ),
      };
    }),
  );
}

/**
 * What the scheduled watches alerted on and have not yet seen clear: the verify's gates and the
 * drift watch's differences (named `Cilium drift: field (place)`).
 */
async function readOpenAlerts(deps: ServiceDeps, cluster: string): Promise<OpenAlert[]> {
  const states = await deps.clusterNotes.alertStates(cluster);
  return states.flatMap((state) => Object.entries(state).map(([gate, alert]) => ({ gate, ...alert })));
}
