import { randomUUID } from 'node:crypto';
import type { Condition, Node } from './kube-types.js';
import { rfc3339 } from './rfc3339.js';

/** What the seeded servers run: the lab infra repo's `k3s_version`, so a k3s.yml re-run changes nothing. */
export const K3S_VERSION = 'v1.36.4+k3s1';

/** A k3s server node as it registers: control-plane + etcd roles, the usual pressure conditions. */
export function buildNode(
  name: string,
  address: string,
  index: number,
  created: Date,
  version = K3S_VERSION,
): Node {
  const at = rfc3339(created);
  const condition = (
    type: string,
    status: Condition['status'],
    reason: string,
    message: string,
  ): Condition => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
    reason,
    message,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: at,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': 'k3s',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node-role.kubernetes.io/control-plane': 'true',
        'node-role.kubernetes.io/etcd': 'true',
        'node-role.kubernetes.io/master': 'true',
        'node.kubernetes.io/instance-type': 'k3s',
      },
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': address,
        'k3s.io/hostname': name,
        'k3s.io/internal-ip': address,
        'k3s.io/node-args':
          '["server","--flannel-backend","none","--disable-network-policy","--disable-kube-proxy"]',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: `10.42.${index}.0/24`,
      podCIDRs: [`10.42.${index}.0/24`],
      providerID: `k3s://${name}`,
    },
    status: {
      addresses: [
        { type: 'InternalIP', address },
        { type: 'Hostname', address: name },
      ],
      allocatable: { cpu: '4', 'ephemeral-storage': '60813431006', memory: '8024536Ki', pods: '110' },
      capacity: { cpu: '4', 'ephemeral-storage': '62513996Ki', memory: '8024536Ki', pods: '110' },
      conditions: [
        condition('EtcdIsVoter', 'True', 'MemberNotLearner', 'Node is a voting member of the etcd cluster'),
        condition(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
        ),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: randomUUID(),
        containerRuntimeVersion: 'containerd://2.1.4-k3s1',
        kernelVersion: '6.1.0-40-amd64',
        kubeProxyVersion: '',
        kubeletVersion: version,
        machineID: randomUUID().replaceAll('-', ''),
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: randomUUID(),
      },
    },
  };
}
