import { upgradePlan } from '../upgrade/upgrade-plan.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

/** k3s on every server to the repo's `k3s_version`, one server at a time. */
export interface UpgradeCommand {
  readonly verb: 'upgrade';
  readonly cluster: string;
}

export const upgrade: VerbSpec<UpgradeCommand> = {
  verb: 'upgrade',
  target: 'cluster',
  mutating: true,
  flags: [],
  help: [
    "`upgrade <cluster>`: ⚠ k3s on every server to the repo's k3s_version (one minor version at a time, never back): an etcd snapshot, then one server at a time (the founder last): quorum check, cordon + drain, k3s.yml on it alone, Ready at the new version, uncordon, verify; the first that does not come back stops it there",
  ],
  read: targetOnly(({ cluster }) => ({ verb: 'upgrade', cluster })),
  plan: (_command, world, cluster) => upgradePlan(world, cluster),
};
