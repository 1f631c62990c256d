import type { Backlog, ClusterBacklog } from './cluster-service.js';
import { readClusterOverviews } from './read-cluster-overview.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * What may be piling up, for Prometheus: per cluster the open jobs by where they are (the oldest
 * one's age), the pending approvals (the soonest to expire), the last verify; and the thread
 * outboxes' backlog. A few reads per cluster and per job with an outbox: a scrape costs Redis little.
 */
export async function readBacklog(deps: ServiceDeps): Promise<Backlog> {
  const now = deps.clock.now();
  const overviews = await readClusterOverviews(deps, Object.keys(deps.world.clusters));
  const clusters: ClusterBacklog[] = [];
  for (const overview of overviews) {
    const oldest = { running: 0, waiting: 0, queued: 0 };
    let approvals = 0;
    let soonestExpiry: number | undefined;
    for (const job of overview.open) {
      const progress = job.progress;
      const state = progress?.kind !== 'step' ? 'queued' : progress.waiting ? 'waiting' : 'running';
      oldest[state] = Math.max(oldest[state], now - (job.record?.createdAt ?? now));
      for (const { stored } of await deps.approvals.read(job.id)) {
        if (stored.state.status !== 'pending') continue;
        approvals += 1;
        soonestExpiry = Math.min(soonestExpiry ?? Number.POSITIVE_INFINITY, stored.state.expiresAt);
      }
    }
    clusters.push({
      cluster: overview.cluster,
      openJobs: overview.open.length,
      oldestOpenMs: oldest,
      pendingApprovals: approvals,
      soonestApprovalExpiresInMs: soonestExpiry === undefined ? undefined : soonestExpiry - now,
      lastVerify: overview.lastVerify,
      verifyEveryMs: deps.world.clusters[overview.cluster]?.verifyEveryMs,
    });
  }
  return { clusters, outbox: await deps.outboxBacklog.read() };
}
