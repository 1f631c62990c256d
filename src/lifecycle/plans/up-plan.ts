import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { ciliumPreflightStep } from '../steps/cilium-preflight-step.js';
import { ciliumRolloutStep, watchForStuckAgent } from '../steps/cilium-rollout-step.js';
import { clusterKubeconfigStep } from '../steps/cluster-kubeconfig-step.js';
import { playbookStep } from '../steps/playbook-step.js';
import { prodPreconditionsStep } from '../steps/prod-preconditions-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { vpnEgressCheckStep } from '../steps/vpn-egress-check-step.js';
import { isFirstRun } from './cluster-formed.js';
import { CILIUM_REASON } from './reasons.js';
import { createStepIds } from './step-ids.js';

/** Bring-up as the infra README runs it: site.yml's chain, then the two layers outside site.yml. */
export function upPlan(world: WorldConfig, cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  const extraVars = cluster.extraVars;
  const all = `${cluster.name}: all nodes`;
  const isProd = cluster.name === 'prod';
  const gateway = cluster.nodes.find((node) => node.roles.includes('vpn-egress-gateway'));
  const steps: Step[] = [];
  if (isProd) steps.push(prodPreconditionsStep(id('preconditions'), cluster.name));
  steps.push(
    playbookStep(world, {
      id: id('node-baseline'),
      invocation: { playbook: 'node-baseline.yml', extraVars },
      target: all,
    }),
  );
  const k3sId = id('k3s');
  steps.push(
    playbookStep(world, {
      id: k3sId,
      invocation: { playbook: 'k3s.yml', extraVars },
      target: all,
      approval: {
        reason: isProd
          ? 'prod init: the first k3s run founds the prod cluster (--cluster-init on the primary, the others join)'
          : 'first run: founds the cluster (--cluster-init on the primary, the others join)',
        mark: isProd ? '⚠ prod init (first run)' : '⚠ first run',
        required: isFirstRun,
      },
    }),
    // Numbered after k3s.yml's step, so the ids of the steps after it stay what they were.
    clusterKubeconfigStep(`${k3sId}-kubeconfig`, cluster.name),
    ciliumPreflightStep(id('cilium-preflight'), cluster.name),
    playbookStep(world, {
      id: id('cilium'),
      invocation: { playbook: 'cilium.yml', extraVars },
      target: all,
      approval: { reason: CILIUM_REASON },
      alongside: watchForStuckAgent,
    }),
    ciliumRolloutStep(id('cilium-rollout'), cluster.name),
    verifyGatesStep(id('verify'), cluster.name),
    playbookStep(world, {
      id: id('flux-bootstrap'),
      invocation: { playbook: 'flux-bootstrap.yml', extraVars },
      target: all,
      approval: {
        reason: `installs the SOPS age key and runs flux bootstrap --path=clusters/${cluster.name}: Flux takes over the cluster's platform and apps`,
      },
    }),
    playbookStep(world, {
      id: id('kube-vip'),
      invocation: { playbook: 'kube-vip.yml', extraVars },
      target: all,
    }),
  );
  if (gateway) {
    steps.push(
      playbookStep(world, {
        id: id('vpn-egress-gateway'),
        invocation: { playbook: 'vpn.egress.gateway.yml', extraVars, limit: gateway.name },
        target: gateway.name,
      }),
      vpnEgressCheckStep(id('vpn-check'), gateway.name),
    );
  }
  steps.push(verifyGatesStep(id('verify'), cluster.name));
  return steps;
}
