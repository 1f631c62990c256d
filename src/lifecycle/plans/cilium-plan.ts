import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { ciliumPreflightStep } from '../steps/cilium-preflight-step.js';
import { ciliumRolloutStep, watchForStuckAgent } from '../steps/cilium-rollout-step.js';
import { playbookStep } from '../steps/playbook-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { CILIUM_REASON } from './reasons.js';
import { createStepIds } from './step-ids.js';

export function ciliumPlan(world: WorldConfig, cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  return [
    ciliumPreflightStep(id('cilium-preflight'), cluster.name),
    playbookStep(world, {
      id: id('cilium'),
      invocation: { playbook: 'cilium.yml', extraVars: cluster.extraVars },
      target: `${cluster.name}: all nodes`,
      approval: { reason: CILIUM_REASON },
      alongside: watchForStuckAgent,
    }),
    ciliumRolloutStep(id('cilium-rollout'), cluster.name),
    verifyGatesStep(id('verify'), cluster.name),
  ];
}
