import type { ClusterConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { productionServers } from '../preconditions/production-servers.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
import { ciliumRollbackStep, ciliumRollbackTargetStep } from '../steps/cilium-rollback-step.js';
import { ciliumRolloutStep } from '../steps/cilium-rollout-step.js';
import { fluxKeptSuspendedStep, underSuspendedFlux } from '../steps/flux-steps.js';
import { preconditionsStep } from '../steps/preconditions-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { createStepIds } from './step-ids.js';

/**
 * Back to an earlier revision of the Cilium release (the last good one unless a revision is named):
 * pick it from helm history, `helm rollback` (⚠ approved), then watch the agents roll back one at a
 * time exactly as a rollout is watched, then the verify gates; Flux kept out meanwhile and
 * afterwards: git still holds what failed, and Flux would re-apply it (resumed by hand once fixed).
 */
export function ciliumRollbackPlan(cluster: ClusterConfig, revision: number | undefined): Step[] {
  const id = createStepIds();
  const preconditions = cluster.production
    ? [
        preconditionsStep(id('preconditions'), cluster.name, [
          productionServers,
          vaultPresent(everyNodeOf(cluster)),
        ]),
      ]
    : [];
  return [
    ...preconditions,
    ciliumRollbackTargetStep(id('rollback-target'), cluster.name, revision),
    ...underSuspendedFlux(
      cluster.name,
      [
        ciliumRollbackStep(id('helm-rollback'), cluster.name, revision),
        ciliumRolloutStep(id('cilium-rollout'), cluster.name),
        verifyGatesStep(id('verify'), cluster.name),
      ],
      fluxKeptSuspendedStep(id('keep-flux-suspended'), cluster.name),
    ),
  ];
}
