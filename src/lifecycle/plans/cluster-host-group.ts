import type { ClusterConfig } from '../../config/world-config.js';

/** The runbook's whole-cluster plays: `hosts: "{{ k3s_hosts | default('k3s_servers') }}"`. */
const DEFAULT_HOST_GROUP = 'k3s_servers';

/** The inventory group a cluster's whole-cluster plays run on: dev the default, prod `-e k3s_hosts=k3s_prod`. */
export function clusterHostGroup(cluster: ClusterConfig): string {
  return cluster.extraVars.k3s_hosts ?? DEFAULT_HOST_GROUP;
}
