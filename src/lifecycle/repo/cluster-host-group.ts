import type { ClusterConfig } from '../../config/world-config.js';

/** The whole-cluster plays' `hosts:` default (`{{ k3s_hosts | default('k3s_servers') }}`). */
export const DEFAULT_HOST_GROUP = 'k3s_servers';

/** The inventory group a cluster's whole-cluster plays run on: its `-e k3s_hosts=`, else dev's default. */
export function clusterHostGroup(cluster: ClusterConfig): string {
  return cluster.extraVars.k3s_hosts ?? DEFAULT_HOST_GROUP;
}
