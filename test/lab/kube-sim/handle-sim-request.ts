import type { ClusterSim } from './cluster-sim.js';

/**
 * The lab's control endpoints (no auth), for Ansible playbooks standing in for the real ones:
 * POST /_sim/cilium/rollout (what `cilium.yml`'s Helm upgrade would do), POST /_sim/nodes/{name}/join
 * (what `k3s.yml` on a rebuilt node would do; a no-op 200 for a node that exists), GET /_sim/state,
 * GET /_sim/kubeconfig (`{kubeconfig}`: what the k3s role reads from the primary's
 * /etc/rancher/k3s/k3s.yaml to write the repo's `.cache/<cluster_kubeconfig_name>`).
 */
export function handleSimRequest(
  method: string,
  pathname: string,
  sim: ClusterSim,
  kubeconfig: string,
): { code: number; json: unknown } {
  if (method === 'POST' && pathname === '/_sim/cilium/rollout')
    return { code: 200, json: { ok: true, hash: sim.startCiliumRollout() } };
  const join = /^\/_sim\/nodes\/([^/]+)\/join$/.exec(pathname);
  if (method === 'POST' && join)
    return { code: 200, json: { ok: true, changed: sim.joinNode(decodeURIComponent(join[1]!)) } };
  if (method === 'GET' && pathname === '/_sim/state') return { code: 200, json: sim.state() };
  if (method === 'GET' && pathname === '/_sim/kubeconfig') return { code: 200, json: { kubeconfig } };
  return { code: 404, json: { ok: false, error: `no such control endpoint: ${method} ${pathname}` } };
}
