import type { Gate } from '../gates/gate.js';
import { sameK3sRelease } from './k3s-version.js';

/** The server reports the target version (`kubeletVersion`) and is an etcd member again. */
export function serverVersionGate(server: string, target: string): Gate {
  return {
    name: `${server} at ${target} with the etcd role`,
    watches: [{ kind: 'nodes' }],
    async evaluate({ kube }) {
      const state = (await kube.listNodes()).find((candidate) => candidate.name === server);
      if (!state) return { passed: false, observed: `${server} has not registered` };
      if (!sameK3sRelease(state.kubeletVersion, target))
        return {
          passed: false,
          observed: `${server} still runs ${state.kubeletVersion ?? 'an unknown version'}${state.ready ? '' : `, NotReady${state.readyReason ? ` (${state.readyReason})` : ''}`}`,
        };
      return state.etcd
        ? { passed: true, observed: `${server} runs ${target} with the etcd role` }
        : { passed: false, observed: `${server} runs ${target} but is not an etcd member` };
    },
  };
}
