import { AppsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig, Watch } from '@kubernetes/client-node';
import { ClusterBotError } from '../errors.js';
import type { KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { createFluxReads } from './create-flux-reads.js';
import { createKubeWatch, type KubeWatchOptions } from './create-kube-watch.js';
import { createNodeCalls } from './create-node-calls.js';
import { createPodCalls } from './create-pod-calls.js';
import { createWorkloadReads } from './create-workload-reads.js';

export type KubeGatewayOptions = KubeWatchOptions;

/** The KubeGateway port over @kubernetes/client-node, for one cluster's kubeconfig. */
export function createKubeGateway(kubeConfig: KubeConfig, options: KubeGatewayOptions = {}): KubeGateway {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  return {
    ...createNodeCalls(core),
    ...createPodCalls(core),
    ...createWorkloadReads(core, apps),
    ...createFluxReads(kubeConfig.makeApiClient(CustomObjectsApi)),
    async apiServer() {
      const server = kubeConfig.getCurrentCluster()?.server;
      if (!server) throw new ClusterBotError('KUBE_UNREACHABLE', 'the kubeconfig in use names no API server');
      return server;
    },
    watch: createKubeWatch(new Watch(kubeConfig), options),
  };
}
