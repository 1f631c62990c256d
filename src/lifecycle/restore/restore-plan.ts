import type { ClusterConfig } from '../../config/world-config.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import type { Step } from '../plan/step.js';
import { createStepIds } from '../plans/step-ids.js';
import { nodesInInventory } from '../preconditions/nodes-in-inventory.js';
import { nodesReachable } from '../preconditions/nodes-reachable.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { rootForNodeCommands } from '../preconditions/root-for-node-commands.js';
import { approversConfigured } from './approvers-configured.js';
import { clusterResetStep } from './cluster-reset-step.js';
import { restoreApprovalStep, restoreApprovers } from './restore-approval-step.js';
import { rejoinServerStep, startRestoredServerStep } from './server-back-steps.js';
import { snapshotOnServer } from './snapshot-on-server.js';
import { stopK3sStep } from './stop-k3s-step.js';

/**
 * An HA cluster back to an etcd snapshot, as k3s documents it: stop k3s everywhere, restore on the
 * server holding the snapshot, start it, then each other server re-joins with its old data moved
 * aside, one at a time; then the verify gates. Every step is checkpointed and idempotent.
 */
export function restorePlan(cluster: ClusterConfig, snapshot: string): Step[] {
  const id = createStepIds();
  const servers = cluster.nodes.filter((node) => node.roles.includes('server'));
  const asRoot = (command: string, why: string) =>
    servers.map((server) => ({ command, why, node: async () => server }));
  return [
    preconditionsStep(id('preconditions'), cluster.name, [
      nodesInInventory(servers.map((server) => server.name)),
      nodesReachable,
      approversConfigured(restoreApprovers(cluster.production)),
      snapshotOnServer(snapshot),
      rootForNodeCommands([
        ...asRoot('systemctl stop k3s', 'every server stops before the restore'),
        ...asRoot('k3s server --cluster-reset', 'the server holding the snapshot restores it'),
        ...asRoot('mv server/db aside', 'each other server re-joins without its old etcd data'),
      ]),
    ]),
    restoreApprovalStep(id('approve-restore'), snapshot, cluster.production),
    stopK3sStep(id('stop-k3s'), cluster.name),
    clusterResetStep(id('cluster-reset'), snapshot),
    startRestoredServerStep(id('start-restored'), snapshot),
    ...servers.map((server) => rejoinServerStep(id(`rejoin-${server.name}`), server.name)),
    verifyGatesStep(id('verify'), cluster.name),
  ];
}
