import { type CoreV1Api, PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import type { KubeGateway, NodeState } from '../lifecycle/ports/kube-gateway.js';
import { callKube, callKubeOrUndefinedOn404 } from './call-kube.js';

/** The gateway's node calls: list, cordon or uncordon, delete. */
export function createNodeCalls(
  core: CoreV1Api,
): Pick<KubeGateway, 'listNodes' | 'setUnschedulable' | 'deleteNode'> {
  return {
    async listNodes() {
      const list = await callKube('list nodes', () => core.listNode());
      return list.items.map(toNodeState);
    },
    async setUnschedulable(node, unschedulable) {
      await callKube(`${unschedulable ? 'cordon' : 'uncordon'} ${node}`, () =>
        core.patchNode(
          { name: node, body: { spec: { unschedulable: unschedulable ? true : null } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      );
    },
    async deleteNode(name) {
      await callKubeOrUndefinedOn404(`delete Node ${name}`, () => core.deleteNode({ name }));
    },
  };
}

function toNodeState(node: V1Node): NodeState {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return {
    name: node.metadata?.name ?? '?',
    ready: ready?.status === 'True',
    readyReason: ready && ready.status !== 'True' ? ready.reason || ready.message : undefined,
    unschedulable: node.spec?.unschedulable === true,
    etcd: node.metadata?.labels?.['node-role.kubernetes.io/etcd'] === 'true',
    k3sNodeArgs: node.metadata?.annotations?.['k3s.io/node-args'],
    kubeletVersion: node.status?.nodeInfo?.kubeletVersion,
  };
}
