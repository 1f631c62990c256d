import type { Gate } from './gate.js';

export const hubbleRelayGate: Gate = {
  name: 'Hubble relay up',
  watches: [],
  async evaluate({ kube }) {
    const relay = await kube.readDeployment('kube-system', 'hubble-relay');
    if (!relay) return { passed: false, observed: 'Deployment kube-system/hubble-relay not found' };
    const passed = relay.replicas > 0 && relay.available >= relay.replicas;
    return { passed, observed: `hubble-relay ${relay.available}/${relay.replicas} available` };
  },
};
