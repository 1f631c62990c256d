import type { ClusterConfig } from '../config/world-config.js';

/** The configured servers: the hosts a whole-cluster play must run on, exactly. */
export function clusterServers(cluster: ClusterConfig): string[] {
  return cluster.nodes.filter((node) => node.roles.includes('server')).map((node) => node.name);
}
