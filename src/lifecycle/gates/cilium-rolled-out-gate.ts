import { CILIUM, type Gate } from './gate.js';
import { describeDaemonSet, isRolledOut } from './rollout-status.js';

export const ciliumRolledOutGate: Gate = {
  name: 'Cilium rolled out',
  watches: [{ kind: 'daemonset', namespace: CILIUM.namespace, name: CILIUM.name }],
  async evaluate({ kube }) {
    const ds = await kube.readDaemonSet(CILIUM.namespace, CILIUM.name);
    if (!ds) return { passed: false, observed: 'DaemonSet kube-system/cilium not found' };
    return { passed: isRolledOut(ds), observed: describeDaemonSet(ds) };
  },
};
