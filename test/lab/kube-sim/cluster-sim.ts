import { buildDeployment } from './build-deployment.js';
import { buildNamespace } from './build-namespace.js';
import { buildNode } from './build-node.js';
import { buildPodDisruptionBudget } from './build-pod-disruption-budget.js';
import { buildCiliumConfigMap } from './cilium-config-map.js';
import { buildCiliumDaemonSet, CILIUM_CHECKSUM_ANNOTATION, newConfigChecksum } from './cilium-daemon-set.js';
import {
  CURRENT_CHART_VERSION,
  ciliumReleaseValues,
  INSTALLED_CHART_VERSION,
} from './cilium-release-values.js';
import { collectGarbage } from './collect-garbage.js';
import {
  buildCiliumHelmRelease,
  type HelmRelease,
  reconcileResumed,
  setSuspended,
} from './flux-helm-release.js';
import { bootstrapFlux, serveGitRevision } from './flux-source.js';
import { HelmHistory, type HelmHistoryEntry } from './helm-history.js';
import { K3sServers } from './k3s-servers.js';
import { buildKubeProxyDaemonSet } from './kube-proxy-daemon-set.js';
import type { ResolvedKubeSimOptions } from './kube-sim-options.js';
import type {
  ControllerRevision,
  DaemonSet,
  Deployment,
  Node,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
} from './kube-types.js';
import { computeTemplateHash } from './names.js';
import { ObjectStore } from './object-store.js';
import { patchObject } from './patch-object.js';
import { countBudget, pdbStatus } from './pdb-status.js';
import { reconcileDaemonSets } from './reconcile-daemon-sets.js';
import { reconcileDeployments } from './reconcile-deployments.js';
import { reconcileNodes } from './reconcile-nodes.js';
import { reconcileReplicaSets } from './reconcile-replica-sets.js';
import { resourceByName } from './resources.js';
import { rfc3339 } from './rfc3339.js';
import { runKubelets } from './run-kubelets.js';
import { schedulePendingPods } from './schedule-pods.js';
import type { SimContext } from './sim-context.js';
import { TimerSet } from './timer-set.js';

/** Every object of the cluster at one resourceVersion (clones: safe to keep and compare). */
export interface KubeSimState {
  readonly resourceVersion: string;
  readonly nodes: Node[];
  readonly pods: Pod[];
  readonly daemonSets: DaemonSet[];
  readonly deployments: Deployment[];
  readonly replicaSets: ReplicaSet[];
  readonly controllerRevisions: ControllerRevision[];
  readonly podDisruptionBudgets: PodDisruptionBudget[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The simulated cluster: the store plus the controllers (node lifecycle, scheduler, kubelets,
 * DaemonSet, ReplicaSet, Deployment, disruption, garbage collection). Any write to the store schedules
 * a reconcile pass after controllerDelayMs; passes repeat until nothing changes, like controllers
 * reacting to watch events.
 */
export class ClusterSim {
  readonly store = new ObjectStore();
  /** The servers' k3s as the nodes' stand-ins report it (stopped, etcd reset, started again). */
  readonly k3s = new K3sServers(this.store, (name, up) => this.setNodeReady(name, up));
  /** The Helm release `cilium`: what `helm history`, `rollback` and `get values` act on. */
  readonly #helm: HelmHistory;
  readonly #ctx: SimContext;
  #pass: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #k3sStartFails = new Set<string>();

  constructor(options: ResolvedKubeSimOptions, now: () => Date = () => new Date()) {
    const bornAt = new Date(now().getTime() - 12 * DAY_MS);
    const cilium = buildCiliumDaemonSet(options.maxUnavailable, bornAt);
    this.#helm = new HelmHistory(
      {
        checksum: cilium.spec.template.metadata?.annotations?.[CILIUM_CHECKSUM_ANNOTATION] ?? '',
        version: CURRENT_CHART_VERSION,
        values: ciliumReleaseValues(options.maxUnavailable),
      },
      { checksum: newConfigChecksum(), version: INSTALLED_CHART_VERSION },
      bornAt,
    );
    this.#ctx = {
      store: this.store,
      options,
      nodeRuntime: new Map(),
      podRuntime: new Map(),
      timers: new TimerSet(),
      initialCiliumHash: computeTemplateHash(cilium.spec.template),
      bornAt,
      seeding: true,
      now,
      reconcileSoon: () => this.reconcileSoon(),
    };
    this.#seed(cilium);
    this.store.subscribe(() => this.reconcileSoon());
  }

  reconcileSoon(): void {
    if (this.#pass !== undefined || this.#closed) return;
    this.#pass = setTimeout(() => {
      this.#pass = undefined;
      this.reconcileNow();
    }, this.#ctx.options.controllerDelayMs);
  }

  /** One pass of every controller; true when it wrote anything. */
  reconcileNow(): boolean {
    const before = this.store.resourceVersion;
    collectGarbage(this.#ctx);
    reconcileNodes(this.#ctx);
    schedulePendingPods(this.#ctx);
    runKubelets(this.#ctx);
    reconcileDaemonSets(this.#ctx);
    reconcileDeployments(this.#ctx);
    reconcileReplicaSets(this.#ctx);
    this.#reconcileBudgets();
    return this.store.resourceVersion !== before;
  }

  /** The kubelet of a node stops (Ready False, KubeletNotReady) or comes back. */
  setNodeReady(name: string, ready: boolean): void {
    const runtime = this.#nodeRuntime(name);
    runtime.kubeletUp = ready;
    if (ready) {
      runtime.networkReady = true;
      runtime.readyNotBefore = 0;
    }
    this.reconcileNow();
  }

  /**
   * A Helm upgrade that changes the agent template: new hash, new ControllerRevision, rolling update,
   * and a new release revision (of `chart.version`, with `chart.values`; by default the deployed ones).
   */
  startCiliumRollout(chart: { version?: string; values?: Record<string, unknown> } = {}): string {
    const checksum = newConfigChecksum();
    const values = chart.values ?? this.#helm.values();
    const version = chart.version ?? this.#helm.history().at(-1)?.app_version ?? CURRENT_CHART_VERSION;
    const hash = this.#renderCilium(checksum, values);
    this.#helm.upgrade(version, checksum, values, this.#ctx.now());
    return hash;
  }

  helmHistory(): HelmHistoryEntry[] {
    return this.#helm.history();
  }

  /** The deployed revision's user-supplied values, or those of `revision` (undefined when there is no such revision). */
  helmValues(revision?: number): Record<string, unknown> | undefined {
    return this.#helm.values(revision);
  }

  /** `helm rollback cilium <revision>`: the agents roll back to that revision's template; undefined when there is no such revision. */
  helmRollback(revision: number): { hash: string } | undefined {
    const target = this.#helm.rollback(revision, this.#ctx.now());
    if (!target) return undefined;
    return { hash: this.#renderCilium(target.checksum, this.#helm.values()) };
  }

  /** Someone changed the live release's values by hand (same chart, same agent template). */
  setHelmValues(values: Record<string, unknown>): void {
    this.#helm.setValues(values, this.#ctx.now());
  }

  /** `flux suspend|resume helmrelease cilium -n kube-system`; undefined when Flux has no such HelmRelease. */
  setFluxSuspended(suspended: boolean): HelmRelease | undefined {
    const release = setSuspended(this.store, suspended);
    if (!release || suspended) return release;
    return reconcileResumed(
      this.store,
      release,
      this.#helm.values(),
      (values) => this.startCiliumRollout({ values }),
      this.#ctx.now(),
    );
  }

  /** Flux serves `sha` of main (GitRepository flux-system) and applies `path` from it (Kustomization flux-system). */
  serveGitRevision(sha: string, path: string): void {
    serveGitRevision(this.store, sha, path, this.#ctx.now());
  }

  /** `flux bootstrap --path=<path>` with main at `sha`: Flux serves it and applies `./<path>`. */
  bootstrapFlux(sha: string, path: string): void {
    bootstrapFlux(this.store, sha, path, this.#ctx.now());
  }

  /** What helm writes to the DaemonSet for a revision: its template checksum and the values' updateStrategy. */
  #renderCilium(checksum: string, values: Record<string, unknown>): string {
    const ds = this.store.get<DaemonSet>('daemonsets', 'kube-system', 'cilium');
    if (ds === undefined) throw new Error('kube-sim: there is no cilium DaemonSet to roll out');
    const strategy = values.updateStrategy;
    const patch = {
      spec: {
        template: { metadata: { annotations: { [CILIUM_CHECKSUM_ANNOTATION]: checksum } } },
        ...(strategy !== undefined ? { updateStrategy: strategy } : {}),
      },
    };
    const updated = patchObject(
      this.store,
      resourceByName('daemonsets'),
      'kube-system',
      'cilium',
      'application/merge-patch+json',
      patch,
    ) as DaemonSet;
    return computeTemplateHash(updated.spec.template);
  }

  addKubeProxy(): void {
    if (this.store.get('daemonsets', 'kube-system', 'kube-proxy') !== undefined) return;
    this.store.create('daemonsets', buildKubeProxyDaemonSet(this.#ctx.now()));
  }

  /** Deletes the Node object (as `kubectl delete node`); its pods are garbage-collected. False when absent. */
  removeNode(name: string): boolean {
    const removed = this.store.delete('nodes', undefined, name) !== undefined;
    this.k3s.forget(name);
    this.#ctx.nodeRuntime.delete(name);
    this.#ctx.timers.cancel(`node/${name}/ready`);
    return removed;
  }

  /**
   * What k3s.yml's install does on a node: a node that is not registered registers at `version`,
   * NotReady (CNI not initialised) until its Cilium agent runs and at least nodeReadyDelayMs passed.
   * A registered node at another version restarts k3s at that one (see #restartK3s). Otherwise
   * nothing changes: false.
   */
  joinNode(name: string, version?: string): boolean {
    const existing = this.store.get<Node>('nodes', undefined, name);
    if (existing !== undefined) return this.#restartK3s(existing, version);
    const { options, timers } = this.#ctx;
    const taken = new Set(
      this.store.list<Node>('nodes').flatMap((n) => n.status.addresses.map((a) => a.address)),
    );
    let address = options.nodeAddresses[name];
    for (let host = 11; address === undefined || taken.has(address); host++) address = `127.0.0.${host}`;
    const now = this.#ctx.now();
    const node = buildNode(name, address, this.store.list('nodes').length, now, version);
    node.status.conditions = node.status.conditions.map((c) =>
      c.type === 'Ready' ? { ...c, status: 'False' } : c,
    );
    this.#ctx.nodeRuntime.set(name, {
      kubeletUp: true,
      networkReady: false,
      readyNotBefore: now.getTime() + options.nodeReadyDelayMs,
    });
    this.store.create('nodes', node);
    // a few ms late on purpose: the timer must not fire before readyNotBefore by the wall clock
    timers.after(`node/${name}/ready`, options.nodeReadyDelayMs + 5, () => this.reconcileSoon());
    this.reconcileNow();
    return true;
  }

  /** The next k3s installed on this node at a new version does not come up (its kubelet stays down). */
  failK3sStart(name: string): void {
    this.#k3sStartFails.add(name);
  }

  /**
   * A new k3s version installed on a registered server: k3s restarts, the Node is NotReady for
   * nodeReadyDelayMs and then reports the new kubeletVersion. On a node failK3sStart named, the new
   * k3s never starts: the kubelet stops posting (NotReady) and the Node keeps its old version.
   */
  #restartK3s(node: Node, version: string | undefined): boolean {
    const name = node.metadata.name;
    if (version === undefined || node.status.nodeInfo.kubeletVersion === version) return false;
    const runtime = this.#nodeRuntime(name);
    if (this.#k3sStartFails.has(name)) {
      runtime.kubeletUp = false;
      this.reconcileNow();
      return true;
    }
    const next = structuredClone(node);
    next.status.nodeInfo.kubeletVersion = version;
    this.store.update('nodes', next);
    const { options, timers } = this.#ctx;
    runtime.readyNotBefore = this.#ctx.now().getTime() + options.nodeReadyDelayMs;
    timers.after(`node/${name}/ready`, options.nodeReadyDelayMs + 5, () => this.reconcileSoon());
    this.reconcileNow();
    return true;
  }

  state(): KubeSimState {
    const { store } = this;
    return {
      resourceVersion: String(store.resourceVersion),
      nodes: store.list('nodes'),
      pods: store.list('pods'),
      daemonSets: store.list('daemonsets'),
      deployments: store.list('deployments'),
      replicaSets: store.list('replicasets'),
      controllerRevisions: store.list('controllerrevisions'),
      podDisruptionBudgets: store.list('poddisruptionbudgets'),
    };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#pass);
    this.#ctx.timers.clear();
  }

  #seed(cilium: DaemonSet): void {
    const { options, bornAt, store } = this.#ctx;
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system'])
      store.create('namespaces', buildNamespace(ns, bornAt));
    options.nodes.forEach((name, i) => {
      store.create('nodes', buildNode(name, options.nodeAddresses[name]!, i, bornAt));
      this.#ctx.nodeRuntime.set(name, {
        kubeletUp: !options.nodeNotReady.includes(name),
        networkReady: true,
        readyNotBefore: 0,
      });
    });
    store.create('configmaps', buildCiliumConfigMap(bornAt));
    store.create('daemonsets', cilium);
    if (options.kubeProxy) store.create('daemonsets', buildKubeProxyDaemonSet(bornAt));
    if (options.helmRelease) {
      const shape = { chartVersion: CURRENT_CHART_VERSION, ...options.helmRelease };
      store.create('helmreleases', buildCiliumHelmRelease(shape, this.#helm.values(), bornAt));
    }
    const workloads: {
      name: string;
      namespace: string;
      replicas: number;
      labels: Record<string, string>;
      image: string;
    }[] = [
      {
        name: 'coredns',
        namespace: 'kube-system',
        replicas: 1,
        labels: { 'k8s-app': 'kube-dns' },
        image: 'rancher/mirrored-coredns-coredns:1.12.3',
      },
      {
        name: 'hubble-relay',
        namespace: 'kube-system',
        replicas: 1,
        labels: { 'k8s-app': 'hubble-relay' },
        image: 'quay.io/cilium/hubble-relay:v1.18.2',
      },
      { name: 'web', namespace: 'default', replicas: 3, labels: { app: 'web' }, image: 'nginx:1.29' },
      { name: 'worker', namespace: 'default', replicas: 2, labels: { app: 'worker' }, image: 'busybox:1.37' },
    ];
    for (const { image, ...shape } of workloads) {
      const { deployment, replicaSet } = buildDeployment({
        ...shape,
        containers: [{ name: shape.name, image }],
        created: bornAt,
      });
      store.create('deployments', deployment);
      store.create('replicasets', replicaSet);
    }
    const budget = options.pdbBlocks ? { minAvailable: 3 } : { maxUnavailable: 1 };
    store.create(
      'poddisruptionbudgets',
      buildPodDisruptionBudget('web', 'default', { app: 'web' }, budget, bornAt),
    );
    for (let pass = 0; pass < 20 && this.reconcileNow(); pass++);
    this.#ctx.seeding = false;
  }

  #reconcileBudgets(): void {
    const pods = this.store.list<Pod>('pods');
    const at = rfc3339(this.#ctx.seeding ? this.#ctx.bornAt : this.#ctx.now());
    for (const pdb of this.store.list<PodDisruptionBudget>('poddisruptionbudgets')) {
      this.store.update('poddisruptionbudgets', {
        ...pdb,
        status: pdbStatus(pdb, countBudget(pdb, pods), at),
      });
    }
  }

  #nodeRuntime(name: string) {
    const runtime = this.#ctx.nodeRuntime.get(name);
    if (runtime === undefined || this.store.get('nodes', undefined, name) === undefined)
      throw new Error(`kube-sim: no node ${name}`);
    return runtime;
  }
}
