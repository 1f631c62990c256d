import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import { ciliumPreflightStep } from '../cilium/cilium-preflight-step.js';
import { ciliumRolloutStep, watchForStuckAgent } from '../cilium/cilium-rollout-step.js';
import { fluxHandBack } from '../cilium/flux-hand-back.js';
import { underSuspendedFlux } from '../cilium/flux-steps.js';
import { clusterServers } from '../cluster-servers.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import type { Step } from '../plan/step.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { productionServers } from '../preconditions/production-servers.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
import { CILIUM_REASON } from './reasons.js';
import { rerun } from './rerun.js';
import { createStepIds } from './step-ids.js';

export function ciliumPlan(world: WorldConfig, cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  const preconditions = cluster.production
    ? [
        preconditionsStep(id('preconditions'), cluster.name, [
          productionServers,
          vaultPresent(everyNodeOf(cluster)),
        ]),
      ]
    : [];
  const preflight = ciliumPreflightStep(id('cilium-preflight'), cluster.name);
  const ciliumSteps = [
    playbookStep(world, {
      id: id('cilium'),
      invocation: { playbook: 'cilium.yml', extraVars: cluster.extraVars },
      target: `${cluster.name}: all nodes`,
      hosts: clusterServers(cluster),
      approval: { reason: CILIUM_REASON, preflight: rerun(preflight) },
      alongside: watchForStuckAgent,
    }),
    ciliumRolloutStep(id('cilium-rollout'), cluster.name),
    verifyGatesStep(id('verify'), cluster.name),
  ];
  const [resume, ...handBack] = fluxHandBack(id('resume-flux'), cluster.name);
  return [
    ...preconditions,
    preflight,
    ...underSuspendedFlux(cluster.name, ciliumSteps, resume!),
    ...handBack,
  ];
}
