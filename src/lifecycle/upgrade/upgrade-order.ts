import type { ClusterConfig, NodeEntry } from '../../config/world-config.js';

/**
 * The servers in the order an upgrade takes them: the config's order, the founder (the `primary`
 * role, which founderAgrees holds to hosts.ini) last. Its play carries `--cluster-init`, which k3s
 * honours only on a server without etcd data; by going last it runs once two upgraded members hold
 * quorum, and right after the founder checks prove it is still a Ready etcd member.
 */
export function upgradeOrder(cluster: ClusterConfig): NodeEntry[] {
  const servers = cluster.nodes.filter((node) => node.roles.includes('server'));
  const founder = (node: NodeEntry) => node.roles.includes('primary');
  return [...servers.filter((node) => !founder(node)), ...servers.filter(founder)];
}
