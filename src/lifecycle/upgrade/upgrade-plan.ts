import type { ClusterConfig, NodeEntry, WorldConfig } from '../../config/world-config.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import { cordonDrainStep } from '../node/cordon-drain-step.js';
import { uncordonStep } from '../node/uncordon-step.js';
import type { Step } from '../plan/step.js';
import { founderPlayPattern } from '../plans/founder-play-pattern.js';
import { createStepIds } from '../plans/step-ids.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { founderAgrees } from '../preconditions/founder-agrees.js';
import { founderInCluster } from '../preconditions/founder-in-cluster.js';
import { nodesInInventory } from '../preconditions/nodes-in-inventory.js';
import { nodesReachable } from '../preconditions/nodes-reachable.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { rootForNodeCommands } from '../preconditions/root-for-node-commands.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
import { etcdSnapshotStep } from '../snapshots/etcd-snapshot-step.js';
import { snapshotServer } from '../snapshots/snapshot-server.js';
import { atApprovedCommit } from './at-approved-commit.js';
import { k3sInvocation } from './k3s-invocation.js';
import { onlyApprovedServer } from './only-approved-server.js';
import { quorumStep } from './quorum-step.js';
import { serverUpgradedStep } from './server-upgraded-step.js';
import { stillRunsApprovedVersion } from './still-runs-approved-version.js';
import { upgradeApprovalStep } from './upgrade-approval-step.js';
import { approvedUpgrade } from './upgrade-facts.js';
import { upgradeOrder } from './upgrade-order.js';
import { versionsAllowUpgrade } from './versions-allow-upgrade.js';

/**
 * A rolling k3s upgrade to the repo's `k3s_version`, as k3s documents it for HA: one minor version
 * at a time, one server at a time (quorum holds with one of three down). An etcd snapshot first, on
 * a server other than the first to go; then for each server whose version differs: quorum check,
 * cordon + drain, k3s.yml on it alone, Ready at the new version, uncordon, the verify gates. The
 * first server that does not come back stops the job there.
 */
export function upgradePlan(world: WorldConfig, cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  const order = upgradeOrder(cluster);
  const firstToGo = order[0]?.name ?? '';
  return [
    preconditionsStep(id('preconditions'), cluster.name, [
      founderAgrees,
      nodesInInventory(order.map((server) => server.name)),
      nodesReachable,
      founderInCluster,
      versionsAllowUpgrade,
      rootForNodeCommands([
        {
          command: 'k3s etcd-snapshot save',
          why: 'the etcd snapshot before the upgrade',
          node: (ctx) => snapshotServer(ctx, firstToGo),
        },
      ]),
      // k3s.yml escalates on the server and reads the node-token as root on the founder (delegate_to).
      ...(cluster.production ? [vaultPresent(everyNodeOf(cluster))] : []),
    ]),
    upgradeApprovalStep(id('approve-upgrade'), cluster.name),
    whenUpgrading(etcdSnapshotStep(id('etcd-snapshot'), firstToGo)),
    ...order.flatMap((server) => serverSteps(world, cluster, server, id)),
  ];
}

/** A step of the whole upgrade: skipped when the approval found nothing to upgrade. */
function whenUpgrading(step: Step): Step {
  return {
    ...step,
    async run(ctx) {
      const { servers, target } = approvedUpgrade(ctx);
      if (servers.length === 0) return { status: 'skipped', summary: `every server runs ${target}` };
      return step.run(ctx);
    },
  };
}

function serverSteps(
  world: WorldConfig,
  cluster: ClusterConfig,
  server: NodeEntry,
  id: (name: string) => string,
): Step[] {
  const name = server.name;
  const founder = server.roles.includes('primary');
  return [
    quorumStep(id(`quorum-${name}`), name),
    cordonDrainStep(id(`cordon-drain-${name}`), name),
    playbookStep(world, {
      id: id(`k3s-${name}`),
      invocation: k3sInvocation(cluster, name),
      target: founder ? `${name} (the founder: its play, on a formed cluster)` : name,
      hosts: [name],
      // A secondary only joins; the founder runs its own play, and only while it is a Ready etcd
      // member (founderInCluster), where k3s ignores --cluster-init: it never founds a new cluster.
      founderPlay: founder ? undefined : founderPlayPattern(cluster),
      recheck: [atApprovedCommit, stillRunsApprovedVersion(name), founderAgrees, founderInCluster],
    }),
    serverUpgradedStep(id(`upgraded-${name}`), name),
    uncordonStep(id(`uncordon-${name}`), name),
    verifyGatesStep(id(`verify-${name}`), cluster.name),
  ].map((step) => onlyApprovedServer(name, step));
}
