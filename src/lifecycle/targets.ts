import type { ClusterConfig, NodeEntry, WorldConfig } from '../config/world-config.js';
import type { SshTarget } from './ports/remote-shell.js';

export function opsTarget(world: WorldConfig): SshTarget {
  const { ops } = world;
  return {
    label: 'ops',
    host: ops.host,
    port: ops.port,
    user: ops.user,
    privateKeyPath: ops.privateKeyPath,
    hostKey: { knownHostsPath: ops.knownHostsPath },
  };
}

/** A node over SSH; a rebuilt node is reached with the fingerprint a person accepted, for this job only. */
export function nodeTarget(cluster: ClusterConfig, node: NodeEntry, pinnedFingerprint?: string): SshTarget {
  return {
    label: node.name,
    host: node.address,
    port: cluster.nodeSsh.port,
    user: cluster.nodeSsh.user,
    privateKeyPath: cluster.nodeSsh.privateKeyPath,
    hostKey: pinnedFingerprint
      ? { fingerprint: pinnedFingerprint }
      : { knownHostsPath: cluster.nodeSsh.knownHostsPath },
  };
}

/** The job fact holding a rebuilt node's new host key once a person accepted it (and only then). */
export function hostKeyFactKey(node: string): string {
  return `hostKey:${node}`;
}

/** The job fact holding the key a rebuilt node presented: shown for acceptance, never used to connect. */
export function presentedHostKeyFactKey(node: string): string {
  return `presentedHostKey:${node}`;
}

export function findNode(cluster: ClusterConfig, name: string): NodeEntry {
  const node = cluster.nodes.find((candidate) => candidate.name === name);
  if (!node) throw new Error(`node ${name} is not in cluster ${cluster.name}`);
  return node;
}
