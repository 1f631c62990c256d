import { CILIUM, type Gate } from './gate.js';

/**
 * maxUnavailable 1 is what stops a bad Cilium render at the first agent instead of taking the
 * majority of the dataplane down (the chart default 2 deadlocked two of three agents).
 */
export const maxUnavailableGate: Gate = {
  name: 'Cilium maxUnavailable 1',
  watches: [{ kind: 'daemonset', namespace: CILIUM.namespace, name: CILIUM.name }],
  async evaluate({ kube }) {
    const ds = await kube.readDaemonSet(CILIUM.namespace, CILIUM.name);
    if (!ds) return { passed: false, observed: 'DaemonSet kube-system/cilium not found' };
    const value = ds.maxUnavailable ?? 'unset (Kubernetes default 1, chart default 2)';
    return { passed: ds.maxUnavailable === 1, observed: `maxUnavailable ${value}` };
  },
};
