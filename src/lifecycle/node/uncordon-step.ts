import type { Step } from '../plan/step.js';

export function uncordonStep(id: string, node: string): Step {
  return {
    id,
    title: 'uncordon',
    target: node,
    commandLine: `uncordon ${node}`,
    async run(ctx) {
      await ctx.kube.setUnschedulable(node, false);
      return { status: 'succeeded', summary: `${node} schedulable again` };
    },
  };
}
