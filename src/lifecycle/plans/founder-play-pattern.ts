import type { ClusterConfig } from '../../config/world-config.js';

/** k3s.yml's founder play's `hosts:` (`{{ k3s_primary_hosts | default('k3s_primary') }}`), for this cluster. */
export function founderPlayPattern(cluster: ClusterConfig): string {
  return cluster.extraVars.k3s_primary_hosts ?? 'k3s_primary';
}
