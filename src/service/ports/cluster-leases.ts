/** Who holds each cluster, and who waits for it (`--queue`): what `status` and the Home show. */
export interface ClusterLeaseReader {
  /** The job id holding the cluster's lease, or null when it is free. */
  holder(cluster: string): Promise<string | null>;
  /** Job ids waiting for the lease, first in line first. */
  waiting(cluster: string): Promise<string[]>;
}
