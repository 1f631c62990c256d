import {
  AppsV1Api,
  CoreV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1DaemonSet,
  Watch,
} from '@kubernetes/client-node';
import type { DaemonSetState, KubeGateway, WatchTarget } from '../lifecycle/ports/kube-gateway.js';
import { statusCodeOf, toKubeError } from './to-kube-error.js';
import { toPodState } from './to-pod-state.js';

export interface KubeGatewayOptions {
  /** Pause before re-opening a watch that ended (server timeout, cut stream). */
  readonly rewatchDelayMs?: number;
  readonly onWatchError?: (target: WatchTarget, error: unknown) => void;
}

/** The KubeGateway port over @kubernetes/client-node, for one cluster's kubeconfig. */
export function createKubeGateway(kubeConfig: KubeConfig, options: KubeGatewayOptions = {}): KubeGateway {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const watcher = new Watch(kubeConfig);
  const rewatchDelayMs = options.rewatchDelayMs ?? 1_000;

  const call = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw toKubeError(what, error);
    }
  };
  const orUndefinedOn404 = async <T>(what: string, request: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await request();
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw toKubeError(what, error);
    }
  };

  return {
    async listNodes() {
      const list = await call('list nodes', () => core.listNode());
      return list.items.map((node) => {
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
        return {
          name: node.metadata?.name ?? '?',
          ready: ready?.status === 'True',
          readyReason: ready && ready.status !== 'True' ? ready.reason || ready.message : undefined,
          unschedulable: node.spec?.unschedulable === true,
          etcd: node.metadata?.labels?.['node-role.kubernetes.io/etcd'] === 'true',
        };
      });
    },
    async readDaemonSet(namespace, name) {
      const ds = await orUndefinedOn404(`read DaemonSet ${namespace}/${name}`, () =>
        apps.readNamespacedDaemonSet({ namespace, name }),
      );
      return ds && toDaemonSetState(ds);
    },
    async listDaemonSets(namespace) {
      const list = await call(`list DaemonSets in ${namespace}`, () =>
        apps.listNamespacedDaemonSet({ namespace }),
      );
      return list.items.map(toDaemonSetState);
    },
    async readDeployment(namespace, name) {
      const deployment = await orUndefinedOn404(`read Deployment ${namespace}/${name}`, () =>
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
    async listPods(query) {
      const fieldSelector = query.nodeName ? `spec.nodeName=${query.nodeName}` : undefined;
      const list = await call('list pods', () =>
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
    async listRevisionHashes(namespace, labelSelector) {
      const list = await call('list ControllerRevisions', () =>
        apps.listNamespacedControllerRevision({ namespace, labelSelector }),
      );
      return [...list.items]
        .sort((a, b) => a.revision - b.revision)
        .map((revision) => {
          const name = revision.metadata?.name ?? '';
          return name.slice(name.lastIndexOf('-') + 1);
        });
    },
    async setUnschedulable(node, unschedulable) {
      await call(`${unschedulable ? 'cordon' : 'uncordon'} ${node}`, () =>
        core.patchNode(
          { name: node, body: { spec: { unschedulable: unschedulable ? true : null } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      );
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
        const code = statusCodeOf(error);
        if (code === 429) return 'blocked';
        if (code === 404) return 'gone';
        throw toKubeError(`evict ${namespace}/${name}`, error);
      }
    },
    async deleteNode(name) {
      await orUndefinedOn404(`delete Node ${name}`, () => core.deleteNode({ name }));
    },
    watch(target, onChange, signal) {
      const { path, query } = watchRequest(target);
      const open = async (): Promise<void> => {
        if (signal.aborted) return;
        let retried = false;
        const again = (error?: unknown) => {
          if (retried || signal.aborted) return;
          retried = true;
          if (error) options.onWatchError?.(target, error);
          // A re-opened watch starts with a fresh list: tell the caller to re-read.
          setTimeout(() => {
            onChange();
            void open();
          }, rewatchDelayMs).unref();
        };
        try {
          const controller = await watcher.watch(path, query, () => onChange(), again);
          if (signal.aborted) controller.abort();
          else signal.addEventListener('abort', () => controller.abort(), { once: true });
        } catch (error) {
          again(error);
        }
      };
      void open();
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

function watchRequest(target: WatchTarget): { path: string; query: Record<string, string> } {
  switch (target.kind) {
    case 'nodes':
      return { path: '/api/v1/nodes', query: {} };
    case 'pods':
      return {
        path: `/api/v1/namespaces/${target.namespace}/pods`,
        query: target.labelSelector ? { labelSelector: target.labelSelector } : {},
      };
    case 'daemonset':
      return {
        path: `/apis/apps/v1/namespaces/${target.namespace}/daemonsets`,
        query: { fieldSelector: `metadata.name=${target.name}` },
      };
  }
}
