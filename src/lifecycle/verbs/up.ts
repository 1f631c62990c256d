import { upPlan } from '../plans/up-plan.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

export interface UpCommand {
  readonly verb: 'up';
  readonly cluster: string;
}

export const up: VerbSpec<UpCommand> = {
  verb: 'up',
  target: 'cluster',
  mutating: true,
  flags: [],
  help: [
    '`up <cluster>`: bring-up (baseline → k3s → cilium → verify → flux, then kube-vip and the VPN gateway)',
  ],
  read: targetOnly(({ cluster }) => ({ verb: 'up', cluster })),
  plan: (_command, world, cluster) => upPlan(world, cluster),
};
