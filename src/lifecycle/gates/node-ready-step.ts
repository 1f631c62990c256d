import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { describePodProblem } from './describe-pod-problem.js';
import { CILIUM, type Gate } from './gate.js';
import { waitForGates } from './wait-for-gates.js';

/** After a rebuild: the node has re-joined and is Ready, and its own Cilium agent is Ready. */
export function nodeReadyStep(id: string, node: string): Step {
  return {
    id,
    title: 'node + Cilium agent Ready',
    target: node,
    run: async (ctx) => ({ status: 'succeeded', summary: await requireGates(ctx, nodeBackGates(node)) }),
  };
}

/** A node back in the cluster: Ready, its own Cilium agent Ready, and every server an etcd member. */
export function nodeBackGates(node: string): Gate[] {
  return [
    {
      name: `${node} Ready`,
      watches: [{ kind: 'nodes' }],
      async evaluate({ kube }) {
        const state = (await kube.listNodes()).find((candidate) => candidate.name === node);
        if (!state) return { passed: false, observed: `${node} has not registered yet` };
        return state.ready
          ? { passed: true, observed: `${node} Ready` }
          : {
              passed: false,
              observed: `${node} NotReady${state.readyReason ? ` (${state.readyReason})` : ''}`,
            };
      },
    },
    {
      name: `Cilium agent on ${node} Ready`,
      watches: [{ kind: 'pods', namespace: CILIUM.namespace, labelSelector: CILIUM.selector }],
      async evaluate({ kube }) {
        const pods = await kube.listPods({
          namespace: CILIUM.namespace,
          labelSelector: CILIUM.selector,
          nodeName: node,
        });
        const agent = pods.find((pod) => !pod.deleting);
        if (!agent) return { passed: false, observed: `no Cilium agent on ${node} yet` };
        return agent.ready
          ? { passed: true, observed: `agent ${agent.name} Ready` }
          : { passed: false, observed: describePodProblem(agent) };
      },
    },
    {
      name: 'every server Ready with the etcd role',
      watches: [{ kind: 'nodes' }],
      async evaluate({ kube, cluster }) {
        const live = await kube.listNodes();
        const missing = cluster.nodes
          .filter((entry) => entry.roles.includes('server'))
          .flatMap((entry) => {
            const state = live.find((candidate) => candidate.name === entry.name);
            if (!state) return [`${entry.name} not registered`];
            if (!state.ready) return [`${entry.name} NotReady`];
            return state.etcd ? [] : [`${entry.name} has no etcd role`];
          });
        return missing.length === 0
          ? { passed: true, observed: 'every server Ready with the etcd role' }
          : { passed: false, observed: missing.join(', ') };
      },
    },
  ];
}

/**
 * Waits (the cluster's agent-ready time) for every gate; each that does not pass alerts, and the
 * step fails naming them all. What they observed, when they all pass.
 */
export async function requireGates(ctx: StepContext, gates: readonly Gate[]): Promise<string> {
  const outcomes = await waitForGates(ctx, gates, ctx.cluster.timeouts.agentReady);
  const failed = outcomes.filter((outcome) => !outcome.passed);
  for (const outcome of failed) await ctx.gateFailed(outcome.gate, outcome.observed);
  if (failed.length > 0) {
    throw new ClusterBotError('GATE_FAILED', failed.map((o) => `${o.gate}: ${o.observed}`).join('; '));
  }
  return outcomes.map((outcome) => outcome.observed).join(', ');
}
