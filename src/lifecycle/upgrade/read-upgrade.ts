import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { readClusterVar } from '../steps/read-cluster-var.js';
import { upgradeOrder } from './upgrade-order.js';
import { type UpgradeVersionVerdict, upgradeVersionVerdict } from './upgrade-version-rule.js';

/** The role k3s.yml installs k3s with: its defaults are the first layer of `k3s_version`. */
const K3S_ROLE = 'k3s_server';

/** What an upgrade would do now: the repo's target, and each server's running version against it. */
export interface UpgradeReading extends UpgradeVersionVerdict {
  /** `k3s_version` as the cluster resolves it at the checkout's HEAD. */
  readonly target: string;
  /** The repo file whose setting won. */
  readonly file: string;
}

/**
 * Reads `k3s_version` as the cluster resolves it (the k3s role's defaults, group_vars/all.yml, the
 * cluster's group) and each server's `kubeletVersion`, in upgrade order, and judges them by the skew
 * rule. A repo that sets no `k3s_version` is refused: the bot never guesses a target.
 */
export async function readUpgrade(ctx: StepContext): Promise<UpgradeReading> {
  const setting = await readClusterVar(ctx, 'k3s_version', { role: K3S_ROLE });
  if (!setting) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `k3s_version is set nowhere for ${ctx.cluster.name} (roles/${K3S_ROLE}/defaults, group_vars): no target version to upgrade to`,
    );
  }
  const live = await ctx.kube.listNodes();
  const running = upgradeOrder(ctx.cluster).map((server) => ({
    server: server.name,
    version: live.find((node) => node.name === server.name)?.kubeletVersion,
  }));
  return { target: setting.value, file: setting.file, ...upgradeVersionVerdict(setting.value, running) };
}
