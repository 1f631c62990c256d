import type { ClusterConfig, NodeEntry, WorldConfig } from '../../config/world-config.js';
import { nodeReadyStep } from '../gates/node-ready-step.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import { cordonDrainStep } from '../node/cordon-drain-step.js';
import { k3sUninstallStep } from '../node/k3s-uninstall-step.js';
import { removeNodeStep } from '../node/remove-node-step.js';
import { uncordonStep } from '../node/uncordon-step.js';
import { vpnEgressCheckStep } from '../node/vpn-egress-check-step.js';
import type { Step } from '../plan/step.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { founderAgrees } from '../preconditions/founder-agrees.js';
import { founderInCluster } from '../preconditions/founder-in-cluster.js';
import { nodesInInventory } from '../preconditions/nodes-in-inventory.js';
import { notTheApiHost } from '../preconditions/not-the-api-host.js';
import { notTheFounder } from '../preconditions/not-the-founder.js';
import { otherServersReady } from '../preconditions/other-servers-ready.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { rootForNodeCommands } from '../preconditions/root-for-node-commands.js';
import { vaultPresent } from '../preconditions/vault-present.js';
import { acceptHostKeyStep } from '../rebuild/accept-host-key-step.js';
import { reinstallConfirmationStep } from '../rebuild/reinstall-confirmation-step.js';
import { tofuRebuildStep } from '../rebuild/tofu-rebuild-step.js';
import { waitForSshStep } from '../rebuild/wait-for-ssh-step.js';
import { etcdSnapshotStep } from '../snapshots/etcd-snapshot-step.js';
import { founderPlayPattern } from './founder-play-pattern.js';
import { productionApproval } from './production-approval.js';
import { reprovisionRootCommands } from './reprovision-root-commands.js';
import { createStepIds } from './step-ids.js';
import { vpnGateway } from './vpn-gateway.js';

/**
 * The infra README's re-provisioning runbook: take the node out cleanly (after an etcd snapshot on a
 * survivor), rebuild it, re-run the node-host layers that do not survive a rebuild, prove it is back,
 * let Flux heal the rest. The founder is never reprovisioned: the inventory must name another first.
 */
// Long on purpose: it reads top to bottom as the runbook, and each step's id follows that order.
export function reprovisionPlan(world: WorldConfig, cluster: ClusterConfig, node: NodeEntry): Step[] {
  const id = createStepIds();
  const extraVars = cluster.extraVars;
  const limited = (playbook: string) => ({ playbook, extraVars, limit: node.name });
  const steps: Step[] = [
    preconditionsStep(id('preconditions'), cluster.name, [
      founderAgrees,
      notTheFounder(node.name),
      notTheApiHost(node),
      nodesInInventory([node.name]),
      otherServersReady(node.name),
      rootForNodeCommands(reprovisionRootCommands(node)),
      // k3s.yml re-joins it with the node-token read as root on the founder (delegate_to).
      ...(cluster.production ? [vaultPresent((repo) => [...(repo.primary?.members ?? []), node.name])] : []),
    ]),
    cordonDrainStep(id('cordon-drain'), node.name, {
      reason:
        `takes ${node.name} out of ${cluster.name}: cordon, evict its pods, snapshot etcd on a survivor, stop k3s, ` +
        'delete its Node (k3s removes its etcd member), then rebuild and re-join it',
      mark: '⚠',
      required: async () => true,
      async bind() {
        const commandLine = `cordon + drain ${node.name}`;
        return { commandLine, targets: node.name, fingerprint: commandLine };
      },
    }),
    etcdSnapshotStep(id('etcd-snapshot'), node.name),
    removeNodeStep(id('remove-node'), node.name),
  ];
  // A rebuilt node has a new host key, which a person accepts before anything runs on it. The bot
  // re-creates a VM itself; a bare-metal node is reinstalled by hand while the job waits for the
  // click that says so. k3s-uninstall.sh then clears what an install that kept /var/lib/rancher left.
  if (node.tofuResource) {
    steps.push(
      tofuRebuildStep(world, id('rebuild'), node, node.tofuResource),
      waitForSshStep(id('wait-ssh'), node.name, { rebuilt: true }),
      acceptHostKeyStep(id('accept-host-key'), node.name),
    );
  } else {
    steps.push(
      reinstallConfirmationStep(id('reinstalled'), node.name, cluster.nodeSsh.user),
      waitForSshStep(id('wait-ssh'), node.name, { rebuilt: true }),
      acceptHostKeyStep(id('accept-host-key'), node.name),
      k3sUninstallStep(id('k3s-uninstall'), node.name),
    );
  }
  steps.push(
    playbookStep(world, {
      id: id('node-baseline'),
      invocation: limited('node-baseline.yml'),
      target: node.name,
      hosts: [node.name],
      approval: productionApproval(cluster, `a full baseline formats and mounts the disks of ${node.name}`),
    }),
    playbookStep(world, {
      id: id('k3s'),
      invocation: limited('k3s.yml'),
      target: node.name,
      hosts: [node.name],
      founderPlay: founderPlayPattern(cluster),
      // The founder may have moved in hosts.ini while the job waited: never re-found the cluster.
      recheck: [founderAgrees, notTheFounder(node.name), founderInCluster],
      approval: productionApproval(cluster, `installs k3s on ${node.name}, which re-joins through the VIP`),
    }),
    playbookStep(world, {
      id: id('kube-vip'),
      invocation: limited('kube-vip.yml'),
      target: node.name,
      hosts: [node.name],
      approval: productionApproval(cluster, `writes the control-plane VIP manifest on ${node.name}`),
    }),
  );
  if (vpnGateway(cluster)?.name === node.name) {
    steps.push(
      playbookStep(world, {
        id: id('vpn-egress-gateway'),
        invocation: limited('vpn.egress.gateway.yml'),
        target: node.name,
        hosts: [node.name],
        approval: productionApproval(cluster, `installs the VPN tunnel and kill switch on ${node.name}`),
      }),
      vpnEgressCheckStep(id('vpn-check'), node.name),
    );
  }
  steps.push(
    nodeReadyStep(id('node-ready'), node.name),
    uncordonStep(id('uncordon'), node.name),
    verifyGatesStep(id('verify'), cluster.name),
  );
  return steps;
}
