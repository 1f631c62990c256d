import { K3S_VERSION } from './build-node.js';
import { apiVersionOf, RESOURCES, type ResourceInfo } from './resources.js';

/** The API groups served, each with its one version. */
const GROUP_VERSIONS: Readonly<Record<string, string>> = {
  apps: 'v1',
  policy: 'v1',
  'helm.toolkit.fluxcd.io': 'v2',
};
const GROUPS = Object.keys(GROUP_VERSIONS);

const VERBS = ['delete', 'get', 'list', 'patch', 'watch'];

/** Subresources kube-sim serves, listed the way discovery lists them. */
const SUBRESOURCES = [
  {
    name: 'pods/eviction',
    parent: 'pods',
    group: 'policy',
    version: 'v1',
    kind: 'Eviction',
    verbs: ['create'],
  },
  { name: 'pods/log', parent: 'pods', kind: 'Pod', verbs: ['get'] },
  { name: 'pods/status', parent: 'pods', kind: 'Pod', verbs: ['get'] },
  { name: 'nodes/status', parent: 'nodes', kind: 'Node', verbs: ['get'] },
  { name: 'daemonsets/status', parent: 'daemonsets', kind: 'DaemonSet', verbs: ['get'] },
  { name: 'deployments/status', parent: 'deployments', kind: 'Deployment', verbs: ['get'] },
];

/** The body for a discovery path (/api, /apis, /apis/apps, /api/v1, /apis/apps/v1, /version), or undefined. */
export function discoveryDocument(pathname: string, serverAddress: string): unknown {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/version') return versionInfo();
  if (path === '/api') {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }
  if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: GROUPS.map(apiGroup) };
  const group = /^\/apis\/([^/]+)$/.exec(path)?.[1];
  if (group !== undefined && GROUPS.includes(group))
    return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
  const groupVersion = path === '/api/v1' ? 'v1' : /^\/apis\/([^/]+\/[^/]+)$/.exec(path)?.[1];
  const resources = RESOURCES.filter((r) => apiVersionOf(r) === groupVersion);
  if (resources.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: resources.flatMap(resourceEntries),
  };
}

function apiGroup(name: string) {
  const version = { groupVersion: `${name}/${GROUP_VERSIONS[name]}`, version: GROUP_VERSIONS[name] };
  return { name, versions: [version], preferredVersion: version };
}

function resourceEntries(resource: ResourceInfo): unknown[] {
  const main = {
    name: resource.plural,
    singularName: resource.kind.toLowerCase(),
    namespaced: resource.namespaced,
    kind: resource.kind,
    verbs: VERBS,
    ...(resource.shortNames.length > 0 ? { shortNames: resource.shortNames } : {}),
  };
  const subs = SUBRESOURCES.filter((s) => s.parent === resource.plural).map(({ parent: _parent, ...s }) => ({
    singularName: '',
    namespaced: resource.namespaced,
    ...s,
  }));
  return [main, ...subs];
}

function versionInfo() {
  return {
    major: '1',
    minor: '36',
    emulationMajor: '1',
    emulationMinor: '36',
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '35',
    gitVersion: K3S_VERSION,
    gitCommit: '8a2f1c7d3e9b4f6a5c0d1e2f3a4b5c6d7e8f9a0b',
    gitTreeState: 'clean',
    buildDate: '2026-04-22T18:04:11Z',
    goVersion: 'go1.26.2',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
