import { formatDuration } from '../../config/parse-duration.js';
import { ClusterBotError } from '../../errors.js';
import type { ApprovalPolicy, Step } from '../plan/step.js';

const EVICTION_RETRY_MS = 2_000;

/** Cordon, then evict every pod the node runs except DaemonSet and mirror pods, honouring PDBs. */
export function cordonDrainStep(id: string, node: string, approval?: ApprovalPolicy): Step {
  return {
    id,
    title: 'cordon + drain',
    target: node,
    commandLine: `cordon ${node}; evict its pods (Eviction API, PodDisruptionBudgets honoured)`,
    approval,
    async run(ctx) {
      // A rebuild that failed after deleting the Node is run again from the top: nothing to take out.
      if (!(await ctx.kube.listNodes()).some((state) => state.name === node)) {
        await ctx.note(
          `Node ${node} is not registered (an earlier run deleted it?): nothing to cordon or drain`,
        );
        return { status: 'skipped', summary: `Node ${node} absent: nothing to cordon or drain` };
      }
      await ctx.kube.setUnschedulable(node, true);
      await ctx.progress(`${node} cordoned`);
      const deadline = ctx.clock.now() + ctx.cluster.timeouts.drain;
      let evicted = 0;
      for (;;) {
        const pods = (await ctx.kube.listPods({ nodeName: node })).filter(
          (pod) => pod.ownerKind !== 'DaemonSet' && !pod.mirror,
        );
        const remaining = pods.filter((pod) => !pod.deleting);
        if (pods.length === 0) {
          return { status: 'succeeded', summary: `${node} cordoned and drained (${evicted} pods evicted)` };
        }
        const blocked: string[] = [];
        for (const pod of remaining) {
          const result = await ctx.kube.evictPod(pod.namespace, pod.name);
          if (result === 'evicted') {
            evicted++;
            await ctx.progress(`evicted ${pod.namespace}/${pod.name}`);
          } else if (result === 'blocked') blocked.push(`${pod.namespace}/${pod.name}`);
        }
        if (ctx.clock.now() >= deadline) {
          const left = pods.map((pod) => `${pod.namespace}/${pod.name}`);
          const why =
            blocked.length > 0 ? `; eviction blocked by a PodDisruptionBudget: ${blocked.join(', ')}` : '';
          throw new ClusterBotError(
            'GATE_TIMEOUT',
            `drain of ${node} timed out after ${formatDuration(ctx.cluster.timeouts.drain)}: still on the node: ${left.join(', ')}${why}. ${node} stays cordoned.`,
            { details: { node, remaining: left, blocked } },
          );
        }
        await ctx.clock.sleep(EVICTION_RETRY_MS, ctx.signal);
      }
    },
  };
}
