import type { WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { LifecycleCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';
import { playbookStep } from '../steps/playbook-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { ciliumPlan } from './cilium-plan.js';
import { healthPlan } from './health-plan.js';
import { reprovisionPlan } from './reprovision-plan.js';
import { upPlan } from './up-plan.js';

/** The ordered steps a command will run: a pure function of the command and the config. */
export function buildPlan(command: LifecycleCommand, world: WorldConfig): Plan {
  const cluster = world.clusters[command.cluster];
  if (!cluster) throw new ClusterBotError('TARGET_UNKNOWN', `unknown cluster ${command.cluster}`);
  switch (command.verb) {
    case 'up':
      return { command, cluster: cluster.name, steps: upPlan(world, cluster) };
    case 'cilium':
      return { command, cluster: cluster.name, steps: ciliumPlan(world, cluster) };
    case 'verify':
      return { command, cluster: cluster.name, steps: [verifyGatesStep('1-verify', cluster.name)] };
    case 'packages':
      return {
        command,
        cluster: cluster.name,
        steps: [
          playbookStep(world, {
            id: '1-node-baseline-packages',
            invocation: {
              playbook: 'node-baseline.yml',
              extraVars: cluster.extraVars,
              tags: 'packages',
              limit: command.node,
            },
            target: command.node,
          }),
        ],
      };
    case 'health':
      return { command, cluster: cluster.name, steps: healthPlan(world, cluster, command.node) };
    case 'reprovision': {
      const node = cluster.nodes.find((candidate) => candidate.name === command.node);
      if (!node) throw new ClusterBotError('TARGET_UNKNOWN', `unknown node ${command.node}`);
      if (node.roles.includes('primary') && !command.primary) {
        throw new ClusterBotError(
          'COMMAND_INVALID',
          `${node.name} is the primary (the --cluster-init founder): re-running k3s on it can found a new cluster ` +
            `instead of re-joining through the VIP. If you mean it, say \`reprovision ${node.name} --primary\`.`,
        );
      }
      return { command, cluster: cluster.name, steps: reprovisionPlan(world, cluster, node) };
    }
  }
}
