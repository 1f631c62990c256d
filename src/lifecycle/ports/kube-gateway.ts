/**
 * What the lifecycle needs from a cluster's Kubernetes API, in the domain's words.
 * Implemented by src/kube with @kubernetes/client-node; faked in unit tests.
 */

export interface NodeState {
  readonly name: string;
  readonly ready: boolean;
  /** The Ready condition's reason/message when not Ready. */
  readonly readyReason?: string | undefined;
  readonly unschedulable: boolean;
  /** Labelled `node-role.kubernetes.io/etcd`: the node is a member of the embedded etcd. */
  readonly etcd: boolean;
  /** k3s's effective arguments as it records them (annotation `k3s.io/node-args`, a JSON array), as written. */
  readonly k3sNodeArgs?: string | undefined;
  /** The k3s release its kubelet runs (`status.nodeInfo.kubeletVersion`, e.g. `v1.36.4+k3s1`). */
  readonly kubeletVersion?: string | undefined;
}

export interface DaemonSetState {
  readonly name: string;
  readonly namespace: string;
  readonly generation: number;
  readonly observedGeneration: number;
  readonly desired: number;
  readonly updated: number;
  readonly available: number;
  readonly ready: number;
  /** spec.updateStrategy.rollingUpdate.maxUnavailable as written (int or percent); undefined when unset. */
  readonly maxUnavailable: number | string | undefined;
}

export interface DeploymentState {
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  readonly available: number;
}

export interface ContainerProblem {
  readonly container: string;
  readonly init: boolean;
  readonly reason: string;
  readonly message?: string | undefined;
  readonly restarts: number;
}

export interface PodState {
  readonly namespace: string;
  readonly name: string;
  readonly node: string | undefined;
  readonly ready: boolean;
  readonly ownerKind: string | undefined;
  readonly mirror: boolean;
  readonly revisionHash: string | undefined;
  readonly createdAt: string | undefined;
  readonly deleting: boolean;
  /** Containers that are not running-and-ready, with what Kubernetes says about them. */
  readonly problems: readonly ContainerProblem[];
}

/** A Flux HelmRelease (helm.toolkit.fluxcd.io/v2), as far as the bot needs it. */
export interface HelmReleaseState {
  readonly name: string;
  readonly namespace: string;
  /** Its Ready condition is True: Flux reconciled it (Flux has adopted the release). */
  readonly ready: boolean;
  readonly suspended: boolean;
  /** spec.chart.spec.version as written; undefined when unset. */
  readonly chartVersion: string | undefined;
  /** metadata.generation: moves with every spec change (a suspend, a resume). */
  readonly generation: number;
  /** status.observedGeneration: the generation Flux last acted on (0 before it ever did). */
  readonly observedGeneration: number;
}

/** Flux's GitRepository (source.toolkit.fluxcd.io/v1): the commit it serves the cluster. */
export interface GitRepositoryState {
  readonly name: string;
  readonly namespace: string;
  /** status.artifact.revision, e.g. `main@sha1:<40 hex>`; undefined before Flux fetched anything. */
  readonly revision: string | undefined;
}

/** Flux's Kustomization (kustomize.toolkit.fluxcd.io/v1): what it applies from its source. */
export interface KustomizationState {
  readonly name: string;
  readonly namespace: string;
  /** spec.path as written (`./clusters/dev`); undefined when unset (the source's root). */
  readonly path: string | undefined;
}

export interface PodQuery {
  readonly namespace?: string;
  readonly nodeName?: string;
  readonly labelSelector?: string;
}

export type EvictionResult = 'evicted' | 'blocked' | 'gone';

/** A resource to watch; the gateway says "something changed" and the caller re-reads. */
export type WatchTarget =
  | { readonly kind: 'nodes' }
  | { readonly kind: 'pods'; readonly namespace: string; readonly labelSelector?: string }
  | { readonly kind: 'daemonset'; readonly namespace: string; readonly name: string };

export interface KubeGateway {
  listNodes(): Promise<NodeState[]>;
  readDaemonSet(namespace: string, name: string): Promise<DaemonSetState | undefined>;
  readDeployment(namespace: string, name: string): Promise<DeploymentState | undefined>;
  listDaemonSets(namespace: string): Promise<DaemonSetState[]>;
  /** A ConfigMap's data; undefined when it does not exist. */
  readConfigMap(namespace: string, name: string): Promise<Readonly<Record<string, string>> | undefined>;
  listPods(query: PodQuery): Promise<PodState[]>;
  /** Flux's HelmRelease; undefined when it does not exist or Flux's CRD is not installed. */
  readHelmRelease(namespace: string, name: string): Promise<HelmReleaseState | undefined>;
  /** Flux's GitRepository; undefined when it does not exist or Flux's CRD is not installed. */
  readGitRepository(namespace: string, name: string): Promise<GitRepositoryState | undefined>;
  /** Flux's Kustomization; undefined when it does not exist or Flux's CRD is not installed. */
  readKustomization(namespace: string, name: string): Promise<KustomizationState | undefined>;
  /**
   * The API server this gateway talks to: the server URL of the kubeconfig it uses (the adopted one
   * once there is one), read without dialling it.
   */
  apiServer(): Promise<string>;
  listRevisionHashes(namespace: string, labelSelector: string): Promise<string[]>;
  setUnschedulable(node: string, unschedulable: boolean): Promise<void>;
  evictPod(namespace: string, name: string): Promise<EvictionResult>;
  /** Deleting a k3s server's Node also removes its etcd member; absent is fine (idempotent). */
  deleteNode(name: string): Promise<void>;
  /**
   * Calls onChange whenever the target may have changed, re-establishing a cut stream by itself,
   * until the signal aborts. Callers re-read state on each call; they also poll, so a lost
   * notification only delays them.
   */
  watch(target: WatchTarget, onChange: () => void, signal: AbortSignal): void;
}
