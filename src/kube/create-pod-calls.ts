import type { CoreV1Api } from '@kubernetes/client-node';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { callKube } from './call-kube.js';
import { statusCodeOf, toKubeError } from './to-kube-error.js';
import { toPodState } from './to-pod-state.js';

/** The gateway's pod calls: list (by namespace, node, labels) and evict. */
export function createPodCalls(core: CoreV1Api): Pick<KubeGateway, 'listPods' | 'evictPod'> {
  return {
    async listPods(query) {
      const fieldSelector = query.nodeName ? `spec.nodeName=${query.nodeName}` : undefined;
      const list = await callKube('list pods', () =>
        query.namespace
          ? core.listNamespacedPod({
              namespace: query.namespace,
              fieldSelector,
              labelSelector: query.labelSelector,
            })
          : core.listPodForAllNamespaces({ fieldSelector, labelSelector: query.labelSelector }),
      );
      return list.items.map(toPodState);
    },
    async evictPod(namespace, name) {
      try {
        await core.createNamespacedPodEviction({
          name,
          namespace,
          body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
        });
        return 'evicted';
      } catch (error) {
        // A disruption budget answers 429; a pod that already left answers 404.
        const code = statusCodeOf(error);
        if (code === 429) return 'blocked';
        if (code === 404) return 'gone';
        throw toKubeError(`evict ${namespace}/${name}`, error);
      }
    },
  };
}
