import type { AppsV1Api, CoreV1Api, V1DaemonSet } from '@kubernetes/client-node';
import type { DaemonSetState, KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { callKube, callKubeOrUndefinedOn404 } from './call-kube.js';

/** The gateway's reads of what runs on the nodes: DaemonSets, their revisions, Deployments, ConfigMaps. */
export function createWorkloadReads(
  core: CoreV1Api,
  apps: AppsV1Api,
): Pick<
  KubeGateway,
  'readDaemonSet' | 'listDaemonSets' | 'listRevisionHashes' | 'readDeployment' | 'readConfigMap'
> {
  return {
    async readDaemonSet(namespace, name) {
      const ds = await callKubeOrUndefinedOn404(`read DaemonSet ${namespace}/${name}`, () =>
        apps.readNamespacedDaemonSet({ namespace, name }),
      );
      return ds && toDaemonSetState(ds);
    },
    async listDaemonSets(namespace) {
      const list = await callKube(`list DaemonSets in ${namespace}`, () =>
        apps.listNamespacedDaemonSet({ namespace }),
      );
      return list.items.map(toDaemonSetState);
    },
    async listRevisionHashes(namespace, labelSelector) {
      const list = await callKube('list ControllerRevisions', () =>
        apps.listNamespacedControllerRevision({ namespace, labelSelector }),
      );
      return [...list.items]
        .sort((a, b) => a.revision - b.revision)
        .map((revision) => {
          const name = revision.metadata?.name ?? '';
          return name.slice(name.lastIndexOf('-') + 1);
        });
    },
    async readDeployment(namespace, name) {
      const deployment = await callKubeOrUndefinedOn404(`read Deployment ${namespace}/${name}`, () =>
        apps.readNamespacedDeployment({ namespace, name }),
      );
      return (
        deployment && {
          name,
          namespace,
          replicas: deployment.spec?.replicas ?? 1,
          available: deployment.status?.availableReplicas ?? 0,
        }
      );
    },
    async readConfigMap(namespace, name) {
      const configMap = await callKubeOrUndefinedOn404(`read ConfigMap ${namespace}/${name}`, () =>
        core.readNamespacedConfigMap({ namespace, name }),
      );
      return configMap && (configMap.data ?? {});
    },
  };
}

function toDaemonSetState(ds: V1DaemonSet): DaemonSetState {
  return {
    name: ds.metadata?.name ?? '?',
    namespace: ds.metadata?.namespace ?? '?',
    generation: ds.metadata?.generation ?? 0,
    observedGeneration: ds.status?.observedGeneration ?? 0,
    desired: ds.status?.desiredNumberScheduled ?? 0,
    updated: ds.status?.updatedNumberScheduled ?? 0,
    available: ds.status?.numberAvailable ?? 0,
    ready: ds.status?.numberReady ?? 0,
    maxUnavailable: ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable as number | string | undefined,
  };
}
