import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { productionServers } from '../preconditions/production-servers.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
import { ciliumPreflightStep } from '../steps/cilium-preflight-step.js';
import { ciliumRolloutStep, watchForStuckAgent } from '../steps/cilium-rollout-step.js';
import { fluxHandBack } from '../steps/flux-hand-back.js';
import { underSuspendedFlux } from '../steps/flux-steps.js';
import { playbookStep } from '../steps/playbook-step.js';
import { preconditionsStep } from '../steps/preconditions-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { clusterServers } from './cluster-servers.js';
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
