import { RECENT_KEPT } from '../jobs/job-record.js';
import { knownHostsLine } from '../lifecycle/rebuild/known-hosts-entry.js';
import type { ClusterOverview, HostKeyPinNote } from './cluster-service.js';
import { summariseJob } from './job-summary.js';
import type { ServiceDeps } from './service-deps.js';

/** Lease holder, waiting line, unfinished jobs, last verify and a Flux left suspended, of each named cluster. */
export async function readClusterOverviews(
  deps: ServiceDeps,
  clusters: readonly string[],
): Promise<ClusterOverview[]> {
  // As far back as the records keep: an unfinished job older than that is not listed.
  const recent = await deps.records.recent(RECENT_KEPT);
  const overviews: ClusterOverview[] = [];
  for (const cluster of clusters) {
    const holderId = await deps.clusterLeases.holder(cluster);
    const holderRecord = holderId ? await deps.records.get(holderId) : undefined;
    const lastVerify = await deps.clusterNotes.lastVerify(cluster);
    const fluxSuspended = await deps.clusterNotes.fluxSuspended(cluster);
    const pins = await readHostKeyPinNotes(deps, cluster);
    overviews.push({
      cluster,
      holder: holderId
        ? holderRecord
          ? await summariseJob(holderRecord, deps.threads)
          : { id: holderId }
        : undefined,
      waiting: await deps.clusterLeases.waiting(cluster),
      open: await Promise.all(
        recent
          .filter((record) => record.command.cluster === cluster && !record.outcome)
          .map((record) => summariseJob(record, deps.threads)),
      ),
      lastVerify,
      fluxSuspended,
      ...(pins.length > 0 && { hostKeyPins: pins }),
    });
  }
  return overviews;
}

async function readHostKeyPinNotes(deps: ServiceDeps, clusterName: string): Promise<HostKeyPinNote[]> {
  const cluster = deps.world.clusters[clusterName];
  if (!cluster) return [];
  const kept = await deps.hostKeyPins.read(clusterName);
  return cluster.nodes.flatMap((node) => {
    const key = kept[node.name];
    if (!key) return [];
    const { fingerprint, jobId, approvedBy } = key;
    return [
      { node: node.name, fingerprint, jobId, approvedBy, knownHostsLine: knownHostsLine(cluster, node, key) },
    ];
  });
}
