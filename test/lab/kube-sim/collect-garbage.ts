import { controllerOf } from './controller-of.js';
import type { KubeObject, Node, Pod } from './kube-types.js';
import type { ResourceName } from './resources.js';
import type { SimContext } from './sim-context.js';

const OWNER_RESOURCES: Record<string, ResourceName> = {
  DaemonSet: 'daemonsets',
  Deployment: 'deployments',
  ReplicaSet: 'replicasets',
};

/** Pod GC (pods bound to a node that is gone) and the garbage collector (objects whose owner is gone). */
export function collectGarbage(ctx: SimContext): void {
  const { store } = ctx;
  const nodes = new Set(store.list<Node>('nodes').map((n) => n.metadata.name));
  for (const pod of store.list<Pod>('pods')) {
    if (pod.spec.nodeName !== undefined && !nodes.has(pod.spec.nodeName))
      store.delete('pods', pod.metadata.namespace, pod.metadata.name);
  }
  for (const resource of ['replicasets', 'controllerrevisions', 'pods'] as const) {
    for (const object of store.list<KubeObject>(resource)) {
      const owner = controllerOf(object);
      const ownerResource = owner ? OWNER_RESOURCES[owner.kind] : undefined;
      if (owner === undefined || ownerResource === undefined) continue;
      const found = store.get(ownerResource, object.metadata.namespace, owner.name);
      if (found?.metadata.uid !== owner.uid)
        store.delete(resource, object.metadata.namespace, object.metadata.name);
    }
  }
}
