import { controllerOf } from './controller-of.js';
import type { Node, Pod } from './kube-types.js';
import type { SimContext } from './sim-context.js';

/**
 * The scheduler, for workload pods: a Ready, schedulable, untainted node, spreading pods of one owner
 * first, then by load, then by name. Undefined when no node fits (the pod stays Pending).
 */
export function pickNode(nodes: Node[], pods: Pod[], ownerUid: string | undefined): string | undefined {
  const fits = nodes.filter(
    (node) =>
      node.spec.unschedulable !== true &&
      node.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') &&
      !(node.spec.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
  );
  const load = (name: string, sameOwner: boolean) =>
    pods.filter((p) => p.spec.nodeName === name && (!sameOwner || controllerOf(p)?.uid === ownerUid)).length;
  const ranked = fits
    .map((node) => ({
      name: node.metadata.name,
      mine: load(node.metadata.name, true),
      all: load(node.metadata.name, false),
    }))
    .sort((a, b) => a.mine - b.mine || a.all - b.all || a.name.localeCompare(b.name));
  return ranked[0]?.name;
}

/** Binds pending (unscheduled) pods once a node fits them. */
export function schedulePendingPods(ctx: SimContext): void {
  const nodes = ctx.store.list<Node>('nodes');
  for (const pod of ctx.store.list<Pod>('pods')) {
    if (pod.spec.nodeName !== undefined) continue;
    const nodeName = pickNode(nodes, ctx.store.list<Pod>('pods'), controllerOf(pod)?.uid);
    if (nodeName !== undefined) ctx.store.update('pods', { ...pod, spec: { ...pod.spec, nodeName } });
  }
}

export function unschedulableMessage(nodes: Node[]): string {
  return `0/${nodes.length} nodes are available: ${nodes.length} node(s) were unschedulable or not ready. preemption: 0/${nodes.length} nodes are available: ${nodes.length} Preemption is not helpful for scheduling.`;
}
