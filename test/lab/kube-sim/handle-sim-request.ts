import type { ClusterSim } from './cluster-sim.js';

type SimReply = { code: number; json: unknown };

/**
 * The lab's control endpoints (no auth), for Ansible playbooks and the ops host's stand-ins:
 * POST /_sim/cilium/rollout (what `cilium.yml`'s Helm upgrade would do; body `{version, values}`
 * optional), POST /_sim/nodes/{name}/join (what `k3s.yml`'s install does, body `{version}`: a node
 * registers at it, a registered one at another version restarts at it; a no-op 200 otherwise), GET /_sim/state, GET /_sim/kubeconfig (`{kubeconfig}`: what the k3s role
 * reads from the primary's /etc/rancher/k3s/k3s.yaml to write the repo's
 * `.cache/<cluster_kubeconfig_name>`); for the `helm` and `flux` stand-ins: GET
 * /_sim/helm/cilium/history, GET /_sim/helm/cilium/values[/{revision}], POST /_sim/helm/cilium/rollback/{revision}
 * (404 when there is no such revision), POST /_sim/flux/cilium/suspend|resume (404 without a HelmRelease),
 * POST /_sim/flux/bootstrap/{sha}/{path} (what `flux bootstrap --path=<path>` leaves with main at sha).
 */
export function handleSimRequest(
  method: string,
  pathname: string,
  sim: ClusterSim,
  kubeconfig: string,
  body = '',
): SimReply {
  if (method === 'POST' && pathname === '/_sim/cilium/rollout')
    return { code: 200, json: { ok: true, hash: sim.startCiliumRollout(chartOf(body)) } };
  const join = /^\/_sim\/nodes\/([^/]+)\/join$/.exec(pathname);
  if (method === 'POST' && join)
    return {
      code: 200,
      json: { ok: true, changed: sim.joinNode(decodeURIComponent(join[1]!), versionOf(body)) },
    };
  const k3s = handleK3sRequest(method, pathname, sim, body);
  if (k3s) return k3s;
  if (method === 'GET' && pathname === '/_sim/state') return { code: 200, json: sim.state() };
  if (method === 'GET' && pathname === '/_sim/kubeconfig') return { code: 200, json: { kubeconfig } };
  return handleReleaseRequest(method, pathname, sim) ?? notFound(method, pathname);
}

/**
 * What the nodes' `systemctl` and `k3s` stand-ins tell the sim: POST /_sim/nodes/{name}/k3s/stop,
 * /k3s/start (body `{dataKept}`: whether server/db was still there; 409 when k3s does not come up)
 * and /cluster-reset.
 */
function handleK3sRequest(
  method: string,
  pathname: string,
  sim: ClusterSim,
  body: string,
): SimReply | undefined {
  const call = /^\/_sim\/nodes\/([^/]+)\/(k3s\/stop|k3s\/start|cluster-reset)$/.exec(pathname);
  if (method !== 'POST' || !call) return undefined;
  const name = decodeURIComponent(call[1]!);
  if (call[2] === 'k3s/stop') sim.k3s.stop(name);
  else if (call[2] === 'cluster-reset') sim.k3s.resetMembership(name);
  else {
    const started = sim.k3s.start(
      name,
      (JSON.parse(body || '{}') as { dataKept?: boolean }).dataKept === true,
    );
    if (!started.started) return { code: 409, json: { ok: false, error: started.reason } };
  }
  return { code: 200, json: { ok: true } };
}

function handleReleaseRequest(method: string, pathname: string, sim: ClusterSim): SimReply | undefined {
  if (method === 'GET' && pathname === '/_sim/helm/cilium/history')
    return { code: 200, json: sim.helmHistory() };
  if (method === 'GET' && pathname === '/_sim/helm/cilium/values')
    return { code: 200, json: sim.helmValues() };
  const revisionValues = /^\/_sim\/helm\/cilium\/values\/(\d+)$/.exec(pathname);
  if (method === 'GET' && revisionValues) {
    const values = sim.helmValues(Number(revisionValues[1]));
    return values
      ? { code: 200, json: values }
      : { code: 404, json: { ok: false, error: 'release: not found' } };
  }
  const rollback = /^\/_sim\/helm\/cilium\/rollback\/(\d+)$/.exec(pathname);
  if (method === 'POST' && rollback) {
    const done = sim.helmRollback(Number(rollback[1]));
    return done
      ? { code: 200, json: { ok: true, ...done } }
      : { code: 404, json: { ok: false, error: `release has no ${rollback[1]} version` } };
  }
  const bootstrap = /^\/_sim\/flux\/bootstrap\/([0-9a-f]{40})\/(.+)$/.exec(pathname);
  if (method === 'POST' && bootstrap) {
    sim.bootstrapFlux(bootstrap[1]!, decodeURIComponent(bootstrap[2]!));
    return { code: 200, json: { ok: true } };
  }
  const flux = /^\/_sim\/flux\/cilium\/(suspend|resume)$/.exec(pathname);
  if (method === 'POST' && flux) {
    const release = sim.setFluxSuspended(flux[1] === 'suspend');
    return release
      ? { code: 200, json: { ok: true, chartVersion: release.spec.chart.spec.version } }
      : { code: 404, json: { ok: false, error: 'helmreleases.helm.toolkit.fluxcd.io "cilium" not found' } };
  }
  return undefined;
}

function notFound(method: string, pathname: string): SimReply {
  return { code: 404, json: { ok: false, error: `no such control endpoint: ${method} ${pathname}` } };
}

/** The chart a rollout installs, from the playbook's body; an empty or other body keeps the deployed one. */
function versionOf(body: string): string | undefined {
  if (!body) return undefined;
  const { version } = JSON.parse(body) as { version?: unknown };
  return typeof version === 'string' ? version : undefined;
}

function chartOf(body: string): { version?: string; values?: Record<string, unknown> } {
  if (body.trim() === '') return {};
  const parsed = JSON.parse(body) as { version?: unknown; values?: unknown };
  return {
    ...(typeof parsed.version === 'string' ? { version: parsed.version } : {}),
    ...(parsed.values !== null && typeof parsed.values === 'object'
      ? { values: parsed.values as Record<string, unknown> }
      : {}),
  };
}
