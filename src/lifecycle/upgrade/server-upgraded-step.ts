import { nodeBackGates, requireGates } from '../gates/node-ready-step.js';
import type { Step } from '../plan/step.js';
import { serverVersionGate } from './server-version-gate.js';
import { approvedUpgrade, fromTo } from './upgrade-facts.js';

/** After k3s.yml on it: the server is back at the target version, with the etcd role and its Cilium agent Ready. */
export function serverUpgradedStep(id: string, server: string): Step {
  return {
    id,
    title: 'back at the new version',
    target: server,
    async run(ctx) {
      const { target, servers } = approvedUpgrade(ctx);
      const observed = await requireGates(ctx, [serverVersionGate(server, target), ...nodeBackGates(server)]);
      const from = servers.find((entry) => entry.server === server)?.from ?? '?';
      // A note, so the job page shows the version change beside the step, as the thread does.
      await ctx.note(`${server}: ${fromTo(from, target)}`);
      return { status: 'succeeded', summary: `${server} ${fromTo(from, target)}: ${observed}` };
    },
  };
}
