import { ClusterBotError } from '../../src/errors.js';
import type {
  DaemonSetState,
  DeploymentState,
  EvictionResult,
  GitRepositoryState,
  HelmReleaseState,
  KubeGateway,
  KustomizationState,
  NodeState,
  PodState,
} from '../../src/lifecycle/ports/kube-gateway.js';

/** An in-memory cluster for unit tests of gates and steps; integration tests use kube-sim instead. */
export function createMemoryKube(nodeNames: readonly string[] = ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']) {
  const nodes = new Map<string, NodeState>(
    nodeNames.map((name) => [name, { name, ready: true, unschedulable: false, etcd: true }]),
  );
  const daemonSets = new Map<string, DaemonSetState>([
    [
      'kube-system/cilium',
      {
        name: 'cilium',
        namespace: 'kube-system',
        generation: 1,
        observedGeneration: 1,
        desired: nodeNames.length,
        updated: nodeNames.length,
        available: nodeNames.length,
        ready: nodeNames.length,
        maxUnavailable: 1,
      },
    ],
  ]);
  const deployments = new Map<string, DeploymentState>([
    [
      'kube-system/hubble-relay',
      { name: 'hubble-relay', namespace: 'kube-system', replicas: 1, available: 1 },
    ],
  ]);
  const pods: PodState[] = nodeNames.map((node, i) => ({
    namespace: 'kube-system',
    name: `cilium-${i}`,
    node,
    ready: true,
    ownerKind: 'DaemonSet',
    mirror: false,
    revisionHash: 'rev1',
    createdAt: '2026-11-01T00:00:00Z',
    deleting: false,
    problems: [],
  }));
  const configMaps = new Map<string, Record<string, string>>([
    ['kube-system/cilium-config', { 'kube-proxy-replacement': 'true' }],
  ]);
  const helmReleases = new Map<string, HelmReleaseState>();
  const gitRepositories = new Map<string, GitRepositoryState>();
  const kustomizations = new Map<string, KustomizationState>();
  let apiServer = 'https://127.0.0.1:6443';
  const labels = new Map<string, string>(pods.map((pod) => [pod.name, 'k8s-app=cilium']));
  const revisions = ['rev1'];
  const evictionBlocked = new Set<string>();
  let unreachable = false;
  const check = () => {
    if (unreachable) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
  };

  const kube: KubeGateway = {
    async listNodes() {
      check();
      return [...nodes.values()];
    },
    async readDaemonSet(namespace, name) {
      check();
      return daemonSets.get(`${namespace}/${name}`);
    },
    async readDeployment(namespace, name) {
      check();
      return deployments.get(`${namespace}/${name}`);
    },
    async listDaemonSets(namespace) {
      check();
      return [...daemonSets.values()].filter((ds) => ds.namespace === namespace);
    },
    async readConfigMap(namespace, name) {
      check();
      return configMaps.get(`${namespace}/${name}`);
    },
    async readHelmRelease(namespace, name) {
      check();
      return helmReleases.get(`${namespace}/${name}`);
    },
    async readGitRepository(namespace, name) {
      check();
      return gitRepositories.get(`${namespace}/${name}`);
    },
    async readKustomization(namespace, name) {
      check();
      return kustomizations.get(`${namespace}/${name}`);
    },
    async apiServer() {
      return apiServer;
    },
    async listPods(query) {
      check();
      return pods.filter(
        (pod) =>
          (query.namespace === undefined || pod.namespace === query.namespace) &&
          (query.nodeName === undefined || pod.node === query.nodeName) &&
          (query.labelSelector === undefined || labels.get(pod.name) === query.labelSelector),
      );
    },
    async listRevisionHashes() {
      check();
      return [...revisions];
    },
    async setUnschedulable(node, unschedulable) {
      check();
      const state = nodes.get(node);
      // As the API server answers a patch of a missing Node (src/kube/to-kube-error.ts words it).
      if (!state) {
        throw new ClusterBotError(
          'KUBE_REQUEST_FAILED',
          `${unschedulable ? 'cordon' : 'uncordon'} ${node}: nodes "${node}" not found`,
          { details: { status: 404 } },
        );
      }
      nodes.set(node, { ...state, unschedulable });
    },
    async evictPod(namespace, name): Promise<EvictionResult> {
      check();
      const index = pods.findIndex((pod) => pod.namespace === namespace && pod.name === name);
      if (index < 0) return 'gone';
      if (evictionBlocked.has(name)) return 'blocked';
      pods.splice(index, 1);
      return 'evicted';
    },
    async deleteNode(name) {
      check();
      nodes.delete(name);
    },
    watch() {},
  };
  return {
    kube,
    nodes,
    daemonSets,
    deployments,
    configMaps,
    helmReleases,
    gitRepositories,
    kustomizations,
    /** The server the kubeconfig in use names (default a loopback one no node has). */
    setApiServer(url: string) {
      apiServer = url;
    },
    pods,
    revisions,
    evictionBlocked,
    addPod(pod: Partial<PodState> & { name: string; node: string }, label?: string) {
      pods.push({
        namespace: 'default',
        ready: true,
        ownerKind: 'ReplicaSet',
        mirror: false,
        revisionHash: undefined,
        createdAt: '2026-11-01T00:00:00Z',
        deleting: false,
        problems: [],
        ...pod,
      });
      if (label) labels.set(pod.name, label);
    },
    setNodeReady(name: string, ready: boolean, readyReason?: string) {
      nodes.set(name, { ...nodes.get(name)!, ready, readyReason });
    },
    setNodeVersion(name: string, kubeletVersion: string) {
      nodes.set(name, { ...nodes.get(name)!, kubeletVersion });
    },
    patchDaemonSet(key: string, patch: Partial<DaemonSetState>) {
      daemonSets.set(key, { ...daemonSets.get(key)!, ...patch });
    },
    setUnreachable(value: boolean) {
      unreachable = value;
    },
  };
}
