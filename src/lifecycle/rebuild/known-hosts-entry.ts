import type { ClusterConfig, NodeEntry } from '../../config/world-config.js';
import type { PresentedHostKey } from '../ports/remote-shell.js';

/** How OpenSSH names a host in known_hosts: the bare address on port 22, `[address]:port` otherwise. */
export function knownHostsName(cluster: ClusterConfig, node: NodeEntry): string {
  const port = cluster.nodeSsh.port;
  return port === 22 ? node.address : `[${node.address}]:${port}`;
}

/** The known_hosts line for a key: `<host> <type> <base64>`. */
export function knownHostsLine(cluster: ClusterConfig, node: NodeEntry, key: PresentedHostKey): string {
  return `${knownHostsName(cluster, node)} ${key.keyType} ${key.publicKey}`;
}
