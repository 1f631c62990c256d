import type { Gate } from './gate.js';

/** Cilium replaces kube-proxy (k3s runs with --disable-kube-proxy): one present means a wrong install. */
export const kubeProxyAbsentGate: Gate = {
  name: 'no kube-proxy',
  watches: [],
  async evaluate(kube) {
    const daemonSets = await kube.listDaemonSets('kube-system');
    const proxies = daemonSets.filter((ds) => ds.name.includes('kube-proxy'));
    const pods = await kube.listPods({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-proxy' });
    if (proxies.length === 0 && pods.length === 0) return { passed: true, observed: 'kube-proxy absent' };
    const found = [
      ...proxies.map((ds) => `DaemonSet ${ds.namespace}/${ds.name}`),
      ...pods.map((p) => `pod ${p.name}`),
    ];
    return { passed: false, observed: `kube-proxy present: ${found.join(', ')}` };
  },
};
