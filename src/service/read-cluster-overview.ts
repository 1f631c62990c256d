import type { JobRecord } from '../jobs/job-record.js';
import type { ClusterOverview, LastVerify } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
import type { ServiceDeps } from './service-deps.js';

/** How far back `status` looks for unfinished jobs (the records keep the last 200). */
const LOOK_BACK = 200;

/** Lease holder, waiting line, unfinished jobs and last verify of each named cluster. */
export async function readClusterOverviews(
  deps: ServiceDeps,
  clusters: readonly string[],
): Promise<ClusterOverview[]> {
  const recent = await recentRecords(deps, LOOK_BACK);
  const overviews: ClusterOverview[] = [];
  for (const cluster of clusters) {
    const holderId = await deps.lock.holder(cluster);
    const holderRecord = holderId ? await deps.records.get(holderId) : undefined;
    const lastRaw = await deps.redis.get(deps.keys.lastVerify(cluster));
    overviews.push({
      cluster,
      holder: holderId
        ? holderRecord
          ? await summariseJob(holderRecord, deps.threads)
          : { id: holderId }
        : undefined,
      waiting: await deps.redis.lrange(deps.keys.waiting(cluster), 0, -1),
      open: await Promise.all(
        recent
          .filter((record) => record.command.cluster === cluster && !record.outcome)
          .map((record) => summariseJob(record, deps.threads)),
      ),
      lastVerify: lastRaw ? (JSON.parse(lastRaw) as LastVerify) : undefined,
    });
  }
  return overviews;
}

export async function recentRecords(deps: ServiceDeps, count: number): Promise<JobRecord[]> {
  const ids = await deps.redis.lrange(deps.keys.recentJobs, 0, count - 1);
  const records = await Promise.all(ids.map((id) => deps.records.get(id)));
  return records.filter((record) => record !== undefined);
}
