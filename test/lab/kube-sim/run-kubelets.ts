import { controllerOf } from './controller-of.js';
import type { Node, Pod } from './kube-types.js';
import { buildPodStatus, type NodeView, type PodRuntime } from './pod-status.js';
import { rfc3339 } from './rfc3339.js';
import { unschedulableMessage } from './schedule-pods.js';
import type { SimContext } from './sim-context.js';

/**
 * The kubelets: start each bound pod after its ready delay (a broken Cilium agent crash-loops in its
 * `config` init container, or fails to pull its image, instead), and report every pod's status. Pods of a node whose kubelet is
 * down are not started until it is back.
 */
export function runKubelets(ctx: SimContext): void {
  const nodes = ctx.store.list<Node>('nodes');
  const pods = ctx.store.list<Pod>('pods');
  const live = new Set(pods.map((p) => p.metadata.uid));
  for (const uid of [...ctx.podRuntime.keys()]) {
    if (live.has(uid)) continue;
    ctx.podRuntime.delete(uid);
    ctx.timers.cancelPrefix(`pod/${uid}/`);
  }
  for (const pod of pods) {
    const runtime = runtimeOf(ctx, pod);
    const node = nodes.find((n) => n.metadata.name === pod.spec.nodeName);
    if (node !== undefined && ctx.nodeRuntime.get(node.metadata.name)?.kubeletUp !== false)
      startWhenDue(ctx, pod, runtime);
    const status = buildPodStatus(pod, runtime, node && nodeView(node), unschedulableMessage(nodes));
    ctx.store.update('pods', { ...pod, status });
  }
}

function runtimeOf(ctx: SimContext, pod: Pod): PodRuntime {
  let runtime = ctx.podRuntime.get(pod.metadata.uid);
  if (runtime === undefined) {
    runtime = {
      createdAt: pod.metadata.creationTimestamp,
      failure: isBrokenAgent(ctx, pod) ? ctx.options.brokenAgentFailure : undefined,
      restarts: 0,
      pullAttempts: 0,
      ...(ctx.seeding && pod.spec.nodeName !== undefined
        ? { startedAt: pod.metadata.creationTimestamp }
        : {}),
    };
    ctx.podRuntime.set(pod.metadata.uid, runtime);
  }
  return runtime;
}

function startWhenDue(ctx: SimContext, pod: Pod, runtime: PodRuntime): void {
  const key = `pod/${pod.metadata.uid}/start`;
  const failing = runtime.lastCrashAt !== undefined || runtime.pullAttempts > 0;
  if (runtime.startedAt !== undefined || failing || ctx.timers.has(key)) return;
  const daemon = controllerOf(pod)?.kind === 'DaemonSet';
  ctx.timers.after(key, daemon ? ctx.options.agentReadyDelayMs : ctx.options.podReadyDelayMs, () => {
    if (runtime.failure === 'config-crash-loop' || runtime.failure === 'image-pull') {
      const fail =
        runtime.failure === 'image-pull'
          ? () => {
              runtime.pullAttempts += 1;
              ctx.reconcileSoon();
            }
          : () => {
              runtime.restarts += 1;
              runtime.lastCrashAt = rfc3339(ctx.now());
              ctx.reconcileSoon();
            };
      fail();
      ctx.timers.every(`pod/${pod.metadata.uid}/crash`, ctx.options.crashLoopIntervalMs, fail);
    } else {
      runtime.startedAt = rfc3339(ctx.now());
      ctx.reconcileSoon();
    }
  });
}

/** A Cilium agent of a template other than the one the cluster started with, on a node named broken. */
function isBrokenAgent(ctx: SimContext, pod: Pod): boolean {
  const owner = controllerOf(pod);
  return (
    owner?.kind === 'DaemonSet' &&
    owner.name === 'cilium' &&
    pod.metadata.namespace === 'kube-system' &&
    ctx.options.brokenAgentOn.includes(pod.spec.nodeName ?? '') &&
    pod.metadata.labels?.['controller-revision-hash'] !== ctx.initialCiliumHash
  );
}

function nodeView(node: Node): NodeView {
  const ready = node.status.conditions.find((c) => c.type === 'Ready');
  return {
    address: node.status.addresses.find((a) => a.type === 'InternalIP')?.address ?? '',
    ready: ready?.status === 'True',
    readySince: ready?.lastTransitionTime ?? node.metadata.creationTimestamp,
  };
}
