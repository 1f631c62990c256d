import type { ClusterLeaseReader } from '../../src/service/ports/cluster-leases.js';

/** Each cluster's lease holder and waiting line, in memory; the test (or the memory queue) sets them. */
export function createMemoryClusterLeases() {
  const holders = new Map<string, string>();
  const lines = new Map<string, string[]>();
  const reader: ClusterLeaseReader = {
    holder: async (cluster) => holders.get(cluster) ?? null,
    waiting: async (cluster) => [...(lines.get(cluster) ?? [])],
  };
  return {
    reader,
    hold(cluster: string, jobId: string) {
      holders.set(cluster, jobId);
    },
    free(cluster: string) {
      holders.delete(cluster);
    },
    /** Joins the cluster's line; answers the place taken (1 for the first). */
    wait(cluster: string, jobId: string): number {
      const line = lines.get(cluster) ?? [];
      line.push(jobId);
      lines.set(cluster, line);
      return line.length;
    },
  };
}
