import { buildPod } from './build-pod.js';
import { controllerOf } from './controller-of.js';
import { isPodReady } from './is-pod-ready.js';
import type { Node, Pod, ReplicaSet } from './kube-types.js';
import { pickNode } from './schedule-pods.js';
import type { SimContext } from './sim-context.js';

/** The ReplicaSet controller: keeps spec.replicas pods, replacing evicted or deleted ones on a node that fits. */
export function reconcileReplicaSets(ctx: SimContext): void {
  const { store } = ctx;
  for (const rs of store.list<ReplicaSet>('replicasets')) {
    const owned = store.list<Pod>('pods').filter((p) => controllerOf(p)?.uid === rs.metadata.uid);
    for (let missing = rs.spec.replicas - owned.length; missing > 0; missing--) {
      const nodeName = pickNode(store.list<Node>('nodes'), store.list<Pod>('pods'), rs.metadata.uid);
      const pod = buildPod({
        owner: rs,
        template: rs.spec.template,
        ...(nodeName !== undefined ? { nodeName } : {}),
        created: ctx.seeding ? ctx.bornAt : ctx.now(),
        daemon: false,
      });
      store.create('pods', pod);
    }
    const surplus = owned.length - rs.spec.replicas;
    if (surplus > 0) {
      const victims = [...owned].sort(
        (a, b) =>
          rank(a) - rank(b) || b.metadata.creationTimestamp.localeCompare(a.metadata.creationTimestamp),
      );
      for (const pod of victims.slice(0, surplus))
        store.delete('pods', pod.metadata.namespace, pod.metadata.name);
    }
    writeStatus(ctx, rs);
  }
}

/** Deletion preference of a scale-down: unscheduled, then not ready, then ready pods. */
function rank(pod: Pod): number {
  if (pod.spec.nodeName === undefined) return 0;
  return isPodReady(pod) ? 2 : 1;
}

function writeStatus(ctx: SimContext, rs: ReplicaSet): void {
  const pods = ctx.store.list<Pod>('pods').filter((p) => controllerOf(p)?.uid === rs.metadata.uid);
  const ready = pods.filter(isPodReady).length;
  const fresh = ctx.store.get<ReplicaSet>('replicasets', rs.metadata.namespace, rs.metadata.name);
  if (fresh === undefined) return;
  fresh.status = {
    replicas: pods.length,
    ...(pods.length > 0 ? { fullyLabeledReplicas: pods.length } : {}),
    ...(ready > 0 ? { readyReplicas: ready, availableReplicas: ready } : {}),
    observedGeneration: fresh.metadata.generation,
  };
  ctx.store.update('replicasets', fresh);
}
