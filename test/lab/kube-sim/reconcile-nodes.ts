import type { Condition, Node, Pod, Taint } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';
import type { NodeRuntime, SimContext } from './sim-context.js';

const KUBELET_DOWN =
  'container runtime is down, PLEG is not healthy: pleg was last seen active 3m2.41s ago; threshold is 3m0s';
const NETWORK_NOT_READY =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
const MANAGED_TAINTS = new Set(['node.kubernetes.io/unschedulable', 'node.kubernetes.io/not-ready']);

/** Kubelet + node lifecycle controller: the Ready condition from the node's runtime, and the taints that follow. */
export function reconcileNodes(ctx: SimContext): void {
  const now = ctx.now();
  const pods = ctx.store.list<Pod>('pods');
  for (const node of ctx.store.list<Node>('nodes')) {
    const name = node.metadata.name;
    const runtime = runtimeOf(ctx, name);
    if (!runtime.networkReady && agentRunning(ctx, pods, name)) runtime.networkReady = true;
    const ready = runtime.kubeletUp && runtime.networkReady && now.getTime() >= runtime.readyNotBefore;
    const next = structuredClone(node);
    next.status.conditions = node.status.conditions.map((c) =>
      c.type === 'Ready' ? readyCondition(c, ready, runtime, now) : c,
    );
    if (next.spec.unschedulable === false) delete next.spec.unschedulable;
    const taints = taintsFor(node, next.spec.unschedulable === true, ready, now);
    if (taints.length > 0) next.spec.taints = taints;
    else delete next.spec.taints;
    ctx.store.update('nodes', next);
  }
}

function runtimeOf(ctx: SimContext, name: string): NodeRuntime {
  let runtime = ctx.nodeRuntime.get(name);
  if (runtime === undefined) {
    runtime = { kubeletUp: true, networkReady: true, readyNotBefore: 0 };
    ctx.nodeRuntime.set(name, runtime);
  }
  return runtime;
}

/** The CNI is up once this node's Cilium agent has started (or when there is no Cilium at all). */
function agentRunning(ctx: SimContext, pods: Pod[], nodeName: string): boolean {
  if (ctx.store.get('daemonsets', 'kube-system', 'cilium') === undefined) return true;
  return pods.some(
    (pod) =>
      pod.spec.nodeName === nodeName &&
      pod.metadata.labels?.['k8s-app'] === 'cilium' &&
      ctx.podRuntime.get(pod.metadata.uid)?.startedAt !== undefined,
  );
}

function readyCondition(current: Condition, ready: boolean, runtime: NodeRuntime, now: Date): Condition {
  const status = ready ? 'True' : 'False';
  const changed = current.status !== status;
  const at = rfc3339(now);
  return {
    type: 'Ready',
    status,
    lastHeartbeatTime: changed ? at : current.lastHeartbeatTime!,
    lastTransitionTime: changed ? at : current.lastTransitionTime!,
    reason: ready ? 'KubeletReady' : 'KubeletNotReady',
    message: ready ? 'kubelet is posting ready status' : runtime.kubeletUp ? NETWORK_NOT_READY : KUBELET_DOWN,
  };
}

function taintsFor(node: Node, unschedulable: boolean, ready: boolean, now: Date): Taint[] {
  const existing = node.spec.taints ?? [];
  const since = (key: string, effect: Taint['effect']) =>
    existing.find((t) => t.key === key && t.effect === effect)?.timeAdded ?? rfc3339(now);
  const taints = existing.filter((t) => !MANAGED_TAINTS.has(t.key));
  if (unschedulable)
    taints.push({
      key: 'node.kubernetes.io/unschedulable',
      effect: 'NoSchedule',
      timeAdded: since('node.kubernetes.io/unschedulable', 'NoSchedule'),
    });
  if (!ready) {
    taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    taints.push({
      key: 'node.kubernetes.io/not-ready',
      effect: 'NoExecute',
      timeAdded: since('node.kubernetes.io/not-ready', 'NoExecute'),
    });
  }
  return taints;
}
