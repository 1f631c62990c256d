import type { ClusterConfig, NodeEntry } from '../../config/world-config.js';

/**
 * The node the VPN egress play runs on. A production cluster has none until it has an egress group
 * of its own (`vpn_egress_gateway_hosts`); the config refuses a gateway role without it.
 */
export function vpnGateway(cluster: ClusterConfig): NodeEntry | undefined {
  if (cluster.production && !cluster.extraVars.vpn_egress_gateway_hosts) return undefined;
  return cluster.nodes.find((node) => node.roles.includes('vpn-egress-gateway'));
}
