import type { HelmReleaseShape } from './flux-helm-release.js';

export type AgentFailure = 'config-crash-loop' | 'image-pull' | 'never-ready';

/** A named starting state of the cluster (the default is 'healthy': every field absent). */
export interface KubeSimScenario {
  /** Nodes whose kubelet is down from the start: Ready False (KubeletNotReady), their pods not Ready. */
  readonly nodeNotReady?: string | readonly string[];
  /** A kube-proxy DaemonSet exists in kube-system (the verify gate must flag it). */
  readonly kubeProxy?: boolean;
  /** The cilium DaemonSet's spec.updateStrategy.rollingUpdate.maxUnavailable (default 1). */
  readonly maxUnavailable?: number | string;
  /** Nodes where a Cilium agent of a NEW template never becomes Ready (see brokenAgentFailure). */
  readonly brokenAgentOn?: string | readonly string[];
  /**
   * How a broken agent fails: its init container `config` crash-loops (the incident's i/o timeout,
   * the default), its image cannot be pulled (ErrImagePull, then ImagePullBackOff), or it runs but
   * its readiness probe never passes (nothing says it is broken for good).
   */
  readonly brokenAgentFailure?: AgentFailure;
  /** The PodDisruptionBudget of the `web` workload allows no disruption (minAvailable = replicas). */
  readonly pdbBlocks?: boolean;
  /** Flux has adopted Cilium: the `cilium` HelmRelease exists in kube-system, shaped so (absent by default). */
  readonly helmRelease?: HelmReleaseShape;
}

export interface KubeSimOptions {
  /**
   * The loopback address it listens on (default 127.0.0.1), in its certificate too: a node's, for a
   * kubeconfig that reaches the API through that node directly rather than the VIP.
   */
  readonly host?: string;
  /** Node names (default k3s-dev-1..3); all are k3s servers (control-plane + etcd). */
  readonly nodes?: readonly string[];
  /** InternalIP per node; defaults to loopback addresses 127.0.0.11, .12, ... (never dialled by the sim). */
  readonly nodeAddresses?: Readonly<Record<string, string>>;
  readonly scenario?: 'healthy' | KubeSimScenario;
  /** The bearer token the kubeconfig carries; any other token gets 401. Random by default. */
  readonly token?: string;
  /** From a DaemonSet pod's creation to its agent being Ready (default 300). */
  readonly agentReadyDelayMs?: number;
  /** From a workload pod's creation to Ready (default: agentReadyDelayMs). */
  readonly podReadyDelayMs?: number;
  /** A joined node stays NotReady at least this long, and until its Cilium agent runs (default 300). */
  readonly nodeReadyDelayMs?: number;
  /** How often a crash-looping container restarts, or a failing image pull is tried again (default 250). */
  readonly crashLoopIntervalMs?: number;
  /** How long controllers wait after a change before reacting (default 15). */
  readonly controllerDelayMs?: number;
}

export interface ResolvedKubeSimOptions {
  readonly host: string;
  readonly nodes: readonly string[];
  readonly nodeAddresses: Readonly<Record<string, string>>;
  readonly token: string;
  readonly agentReadyDelayMs: number;
  readonly podReadyDelayMs: number;
  readonly nodeReadyDelayMs: number;
  readonly crashLoopIntervalMs: number;
  readonly controllerDelayMs: number;
  readonly nodeNotReady: readonly string[];
  readonly kubeProxy: boolean;
  readonly maxUnavailable: number | string;
  readonly brokenAgentOn: readonly string[];
  readonly brokenAgentFailure: AgentFailure;
  readonly pdbBlocks: boolean;
  readonly helmRelease: HelmReleaseShape | undefined;
}

export function resolveKubeSimOptions(
  options: KubeSimOptions,
  randomToken: () => string,
): ResolvedKubeSimOptions {
  const nodes = options.nodes ?? ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'];
  const scenario = options.scenario === undefined || options.scenario === 'healthy' ? {} : options.scenario;
  const nodeNotReady = asList(scenario.nodeNotReady);
  const brokenAgentOn = asList(scenario.brokenAgentOn);
  for (const name of [...nodeNotReady, ...brokenAgentOn]) {
    if (!nodes.includes(name))
      throw new Error(`kube-sim: scenario names node ${name}, which is not in ${nodes.join(', ')}`);
  }
  const agentReadyDelayMs = options.agentReadyDelayMs ?? 300;
  return {
    host: options.host ?? '127.0.0.1',
    nodes,
    nodeAddresses: Object.fromEntries(
      nodes.map((name, i) => [name, options.nodeAddresses?.[name] ?? `127.0.0.${11 + i}`]),
    ),
    token: options.token ?? randomToken(),
    agentReadyDelayMs,
    podReadyDelayMs: options.podReadyDelayMs ?? agentReadyDelayMs,
    nodeReadyDelayMs: options.nodeReadyDelayMs ?? 300,
    crashLoopIntervalMs: options.crashLoopIntervalMs ?? 250,
    controllerDelayMs: options.controllerDelayMs ?? 15,
    nodeNotReady,
    kubeProxy: scenario.kubeProxy ?? false,
    maxUnavailable: scenario.maxUnavailable ?? 1,
    brokenAgentOn,
    brokenAgentFailure: scenario.brokenAgentFailure ?? 'config-crash-loop',
    pdbBlocks: scenario.pdbBlocks ?? false,
    helmRelease: scenario.helmRelease,
  };
}

function asList(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
