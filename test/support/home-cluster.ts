import type { HomeCluster } from '../../src/service/index.js';

/** A cluster as the App Home shows it: free, nothing waiting, no verify yet, unless `change` says otherwise. */
export function homeCluster(cluster: string, change: Partial<HomeCluster> = {}): HomeCluster {
  return {
    cluster,
    waiting: [],
    open: [],
    approvals: [],
    queued: [],
    alerts: [],
    approvers: [],
    requiredApprovals: 1,
    ...change,
  };
}
