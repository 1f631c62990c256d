import { ClusterBotError } from '../../errors.js';
import type { Gate } from '../gates/gate.js';
import { waitForGates } from '../gates/wait-for-gates.js';
import type { StepContext } from '../plan/step.js';

/** The server is registered, Ready, and an etcd member again (the etcd role on its Node). */
function serverBackGate(server: string): Gate {
  return {
    name: `${server} Ready with the etcd role`,
    watches: [{ kind: 'nodes' }],
    async evaluate({ kube }) {
      const state = (await kube.listNodes()).find((candidate) => candidate.name === server);
      if (!state) return { passed: false, observed: `${server} has not registered` };
      if (!state.ready) return { passed: false, observed: `${server} NotReady` };
      return state.etcd
        ? { passed: true, observed: `${server} Ready with the etcd role` }
        : { passed: false, observed: `${server} Ready but not an etcd member` };
    },
  };
}

/** Waits (the cluster's agent-ready time) for the server to be back; refuses with what it last saw. */
export async function waitForServerBack(ctx: StepContext, server: string): Promise<string> {
  const [outcome] = await waitForGates(ctx, [serverBackGate(server)], ctx.cluster.timeouts.agentReady);
  if (!outcome?.passed) {
    const observed = outcome?.observed ?? 'no answer';
    await ctx.gateFailed(`${server} Ready with the etcd role`, observed);
    throw new ClusterBotError('GATE_FAILED', `${server} did not come back: ${observed}`);
  }
  return outcome.observed;
}
