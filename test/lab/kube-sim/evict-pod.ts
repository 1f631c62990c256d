import { failure, KubeApiError, notFound, success } from './api-status.js';
import { isPodReady } from './is-pod-ready.js';
import type { Pod, PodDisruptionBudget, Status } from './kube-types.js';
import { matchesLabelSelector } from './label-selector.js';
import type { ObjectStore } from './object-store.js';
import { countBudget } from './pdb-status.js';
import { resourceByName } from './resources.js';

/**
 * POST .../pods/{name}/eviction: 201 and the pod is deleted, 429 when a PodDisruptionBudget would be
 * violated (unhealthy pods may go while the budget is met: the IfHealthyBudget policy), 404 when gone.
 */
export function evictPod(store: ObjectStore, namespace: string, name: string, body: unknown): Status {
  const pod = store.get<Pod>('pods', namespace, name);
  if (pod === undefined) throw notFound(resourceByName('pods'), name);
  const eviction = body as { kind?: string; metadata?: { name?: string } } | undefined;
  if (eviction?.metadata?.name !== undefined && eviction.metadata.name !== name) {
    throw new KubeApiError(failure(400, 'BadRequest', 'name in URL does not match name in Eviction object'));
  }
  const pods = store.list<Pod>('pods');
  for (const pdb of store.list<PodDisruptionBudget>('poddisruptionbudgets')) {
    if (pdb.metadata.namespace !== namespace || !matchesLabelSelector(pdb.spec.selector, pod.metadata.labels))
      continue;
    const count = countBudget(pdb, pods);
    const allowed = isPodReady(pod)
      ? count.disruptionsAllowed > 0
      : count.currentHealthy >= count.desiredHealthy;
    if (!allowed) {
      throw new KubeApiError(
        failure(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
          causes: [
            {
              reason: 'DisruptionBudget',
              message: `The disruption budget ${pdb.metadata.name} needs ${count.desiredHealthy} healthy pods and has ${count.currentHealthy} currently`,
            },
          ],
        }),
      );
    }
  }
  store.delete('pods', namespace, name);
  return success(201);
}
