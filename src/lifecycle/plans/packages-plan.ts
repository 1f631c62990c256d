import type { ClusterConfig, NodeEntry, WorldConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { preconditionsStep } from '../preconditions/preconditions-step.js';
import { vaultPresent } from '../preconditions/vault-present.js';
import { productionApproval } from './production-approval.js';
import { createStepIds } from './step-ids.js';

/**
 * The packages-only baseline: `--tags packages` selects the apt task alone, so no disk task (and
 * no BLOCKED placeholder) is even templated. It breaks prod's SMART → disk layout circle.
 */
export function packagesPlan(world: WorldConfig, cluster: ClusterConfig, node: NodeEntry): Step[] {
  const id = createStepIds();
  return [
    ...(cluster.production
      ? [preconditionsStep(id('preconditions'), cluster.name, [vaultPresent(() => [node.name])])]
      : []),
    playbookStep(world, {
      id: id('node-baseline-packages'),
      invocation: {
        playbook: 'node-baseline.yml',
        extraVars: cluster.extraVars,
        tags: 'packages',
        limit: node.name,
      },
      target: node.name,
      hosts: [node.name],
      // Idempotent: a re-run of a failed job skips it once done.
      carryOver: true,
      approval: productionApproval(cluster, `installs packages on ${node.name}`),
    }),
  ];
}
