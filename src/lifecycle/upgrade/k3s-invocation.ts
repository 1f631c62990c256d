import type { ClusterConfig } from '../../config/world-config.js';
import { type PlaybookInvocation, playbookArgv } from '../ansible/playbook-invocation.js';
import { quoteArgv } from '../quote-argv.js';

/** `k3s.yml --limit <server>` with the cluster's extra vars (prod's host groups): one server's upgrade. */
export function k3sInvocation(cluster: ClusterConfig, server: string): PlaybookInvocation {
  return { playbook: 'k3s.yml', extraVars: cluster.extraVars, limit: server };
}

/** The argv each server's upgrade runs, in order, as one line for the approval. */
export function k3sCommandLines(cluster: ClusterConfig, servers: readonly string[]): string {
  return servers.map((server) => quoteArgv(playbookArgv(k3sInvocation(cluster, server)))).join('; then ');
}
