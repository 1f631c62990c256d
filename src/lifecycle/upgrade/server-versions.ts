import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { ApprovedUpgrade } from './upgrade-facts.js';
import { fromTo } from './upgrade-facts.js';
import { upgradeOrder } from './upgrade-order.js';

/**
 * Every server as an operator taking over by hand needs it, in upgrade order: the version it runs
 * against the one it ran and the target, Ready or not, cordoned or not, an etcd member or not.
 */
export async function describeServerVersions(ctx: StepContext, upgrade: ApprovedUpgrade): Promise<string[]> {
  let live: Awaited<ReturnType<StepContext['kube']['listNodes']>>;
  try {
    live = await ctx.kube.listNodes();
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return [
      `the Kubernetes API does not answer (${(error as Error).message}): no server's state can be read`,
    ];
  }
  return upgradeOrder(ctx.cluster).map(({ name }) => {
    const state = live.find((node) => node.name === name);
    if (!state) return `${name}: not registered in the API`;
    const from = upgrade.servers.find((entry) => entry.server === name)?.from;
    const version =
      state.kubeletVersion === upgrade.target
        ? from
          ? `${fromTo(from, upgrade.target)} (upgraded)`
          : `${upgrade.target} (already)`
        : `${state.kubeletVersion ?? 'version unknown'} (not upgraded; target ${upgrade.target})`;
    const ready = state.ready ? 'Ready' : `NotReady${state.readyReason ? ` (${state.readyReason})` : ''}`;
    return `${name}: ${version} · ${ready} · ${state.unschedulable ? 'cordoned' : 'schedulable'} · ${state.etcd ? 'etcd member' : 'not an etcd member'}`;
  });
}
