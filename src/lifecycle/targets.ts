import type { ClusterConfig, NodeEntry, WorldConfig } from '../config/world-config.js';
import type { StepContext } from './plan/step.js';
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

/** What choosing a node's host key reads: the job's facts and the keys the bot keeps. */
export type NodeTargetContext = Pick<StepContext, 'cluster' | 'facts' | 'keptHostKeys'>;

/**
 * A node over SSH. A key a person accepted in this job is the only one it takes; otherwise the
 * mounted known_hosts, except that a key the bot kept from an earlier rebuild stands in for the
 * old key known_hosts still holds (until the operators add the new one there).
 */
export function nodeTarget(ctx: NodeTargetContext, node: NodeEntry): SshTarget {
  const { cluster } = ctx;
  const accepted = ctx.facts.get<string>(hostKeyFactKey(node.name));
  const kept = ctx.keptHostKeys[node.name]?.fingerprint;
  return {
    label: node.name,
    host: node.address,
    port: cluster.nodeSsh.port,
    user: cluster.nodeSsh.user,
    privateKeyPath: cluster.nodeSsh.privateKeyPath,
    hostKey: accepted
      ? { fingerprint: accepted }
      : { knownHostsPath: cluster.nodeSsh.knownHostsPath, ...(kept ? { keptFingerprint: kept } : {}) },
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
