import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import { ciliumPreflightStep } from '../cilium/cilium-preflight-step.js';
import { ciliumRolloutStep, watchForStuckAgent } from '../cilium/cilium-rollout-step.js';
import { withFluxPathChecked } from '../cilium/flux-bootstrapped-path.js';
import { fluxHandBack } from '../cilium/flux-hand-back.js';
import { underSuspendedFlux } from '../cilium/flux-steps.js';
import { clusterServers } from '../cluster-servers.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import { clusterKubeconfigStep } from '../kubeconfig/cluster-kubeconfig-step.js';
import { vpnEgressCheckStep } from '../node/vpn-egress-check-step.js';
import type { Step } from '../plan/step.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { clustersDistinct } from '../preconditions/clusters-distinct.js';
import { fluxHandOff } from '../preconditions/flux-hand-off.js';
import { founderAgrees } from '../preconditions/founder-agrees.js';
import { founderInCluster } from '../preconditions/founder-in-cluster.js';
import { noBlockedPlaceholders } from '../preconditions/no-blocked-placeholders.js';
import { nodesInInventory } from '../preconditions/nodes-in-inventory.js';
import { nodesReachable } from '../preconditions/nodes-reachable.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { productionServers } from '../preconditions/production-servers.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
import { k3sApprovalRequired } from './k3s-approval-required.js';
import { productionApproval } from './production-approval.js';
import { CILIUM_UP_REASON } from './reasons.js';
import { rerun } from './rerun.js';
import { createStepIds } from './step-ids.js';
import { vpnGateway } from './vpn-gateway.js';

/**
 * Bring-up as the infra README runs it: site.yml's chain (baseline, k3s, cilium, verify.yml, flux),
 * then the two layers outside site.yml. Everything the repo must say is checked first. A re-run of
 * a failed `up` may skip its idempotent playbooks once done (carryOver); cilium.yml, which runs
 * under a Flux suspension its group's first step makes, always runs again.
 */
// Long on purpose: it reads top to bottom as the runbook, and each step's id follows that order.
export function upPlan(world: WorldConfig, cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  const extraVars = cluster.extraVars;
  const all = `${cluster.name}: all nodes`;
  const servers = clusterServers(cluster);
  const { production } = cluster;
  const gateway = vpnGateway(cluster);
  const steps: Step[] = [
    preconditionsStep(id('preconditions'), cluster.name, [
      clustersDistinct,
      founderAgrees,
      founderInCluster,
      nodesInInventory(cluster.nodes.map((node) => node.name)),
      fluxHandOff,
      ...(production
        ? [productionServers, vaultPresent(everyNodeOf(cluster)), noBlockedPlaceholders, nodesReachable]
        : []),
    ]),
    playbookStep(world, {
      id: id('node-baseline'),
      invocation: { playbook: 'node-baseline.yml', extraVars },
      target: all,
      hosts: servers,
      carryOver: true,
      approval: productionApproval(
        cluster,
        'a full baseline formats and mounts the Longhorn and etcd disks (the disks tag)',
        '⚠ formats disks',
      ),
    }),
  ];
  const k3sId = id('k3s');
  const k3sInvocation = { playbook: 'k3s.yml', extraVars };
  steps.push(
    playbookStep(world, {
      id: k3sId,
      invocation: k3sInvocation,
      target: all,
      hosts: servers,
      carryOver: true,
      recheck: [founderAgrees, founderInCluster],
      approval: production
        ? {
            reason:
              'prod init on its first run: founds the cluster (--cluster-init on the founder, the others join); ' +
              'on a formed cluster it re-runs k3s on every server',
            mark: '⚠ prod init',
          }
        : {
            reason:
              'first run: founds the cluster (--cluster-init on the founder, the others join); on a formed cluster, ' +
              'the change its --check --diff preview shows restarts k3s on each server it touches',
            mark: '⚠ first run or a change',
            required: k3sApprovalRequired(k3sInvocation),
          },
    }),
    // Numbered after k3s.yml's step, so the ids of the steps after it stay what they were.
    clusterKubeconfigStep(`${k3sId}-kubeconfig`, cluster.name),
  );
  const preflight = ciliumPreflightStep(id('cilium-preflight'), cluster.name);
  const ciliumSteps = [
    playbookStep(world, {
      id: id('cilium'),
      invocation: { playbook: 'cilium.yml', extraVars },
      target: all,
      hosts: servers,
      approval: { reason: CILIUM_UP_REASON, preflight: rerun(preflight) },
      alongside: watchForStuckAgent,
    }),
    ciliumRolloutStep(id('cilium-rollout'), cluster.name),
    verifyGatesStep(id('verify'), cluster.name),
  ];
  // A re-run `up` on a cluster Flux has adopted changes Cilium as `cilium` does: Flux kept out
  // meanwhile. Named after the verify step, so the ids of the steps after it stay what they were.
  const [resume, ...handBack] = fluxHandBack(`${ciliumSteps[2]!.id}-resume-flux`, cluster.name);
  steps.push(
    preflight,
    ...underSuspendedFlux(cluster.name, ciliumSteps, resume!),
    ...handBack,
    playbookStep(world, {
      id: id('verify-yml'),
      invocation: { playbook: 'verify.yml', extraVars },
      target: `${cluster.name}: gate #1`,
      hosts: 'read-only',
    }),
    // The repo's path was checked before; what the cluster's live Flux applies is checked after.
    withFluxPathChecked(
      playbookStep(world, {
        id: id('flux-bootstrap'),
        invocation: { playbook: 'flux-bootstrap.yml', extraVars },
        target: all,
        hosts: servers,
        // Outside the Flux suspension above: a re-run may skip it (cilium.yml's group never).
        carryOver: true,
        recheck: [fluxHandOff],
        approval: {
          reason: `installs the SOPS age key and runs flux bootstrap --path=clusters/${cluster.name}: Flux takes over the cluster's platform and apps`,
        },
      }),
    ),
    playbookStep(world, {
      id: id('kube-vip'),
      invocation: { playbook: 'kube-vip.yml', extraVars },
      target: all,
      hosts: servers,
      carryOver: true,
      approval: productionApproval(cluster, 'writes the control-plane VIP manifest on every server'),
    }),
  );
  if (gateway) {
    steps.push(
      playbookStep(world, {
        id: id('vpn-egress-gateway'),
        invocation: { playbook: 'vpn.egress.gateway.yml', extraVars, limit: gateway.name },
        target: gateway.name,
        hosts: [gateway.name],
        carryOver: true,
        approval: productionApproval(cluster, 'installs the VPN tunnel and kill switch'),
      }),
      vpnEgressCheckStep(id('vpn-check'), gateway.name),
    );
  }
  steps.push(verifyGatesStep(id('verify'), cluster.name));
  return steps;
}
