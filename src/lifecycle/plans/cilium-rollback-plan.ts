import type { ClusterConfig } from '../../config/world-config.js';
import { ciliumRollbackStep, ciliumRollbackTargetStep } from '../cilium/cilium-rollback-step.js';
import { ciliumRolloutStep } from '../cilium/cilium-rollout-step.js';
import { fluxKeptSuspendedStep, underSuspendedFlux } from '../cilium/flux-steps.js';
import { verifyGatesStep } from '../gates/verify-gates-step.js';
import type { Step } from '../plan/step.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { productionServers } from '../preconditions/production-servers.js';
import { everyNodeOf, vaultPresent } from '../preconditions/vault-present.js';
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
