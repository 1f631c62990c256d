import type { ClusterConfig } from '../../config/world-config.js';

/** Privileged commands on a node go through non-interactive sudo unless the bot logs in as root. */
export function privileged(cluster: ClusterConfig, argv: readonly string[]): string[] {
  return cluster.nodeSsh.user === 'root' ? [...argv] : ['sudo', '-n', ...argv];
}
