import type { ClusterConfig, NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { CiliumMode, LifecycleCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';
import { founderProcedure } from '../preconditions/founder-procedure.js';
import { ciliumDriftStep } from '../steps/cilium-drift-step.js';
import { planCheckStep } from '../steps/plan-check-step.js';
import { verifyGatesStep } from '../steps/verify-gates-step.js';
import { ciliumPlan } from './cilium-plan.js';
import { ciliumRollbackPlan } from './cilium-rollback-plan.js';
import { healthPlan } from './health-plan.js';
import { packagesPlan } from './packages-plan.js';
import { reprovisionPlan } from './reprovision-plan.js';
import { resumeFluxPlan } from './resume-flux-plan.js';
import { upPlan } from './up-plan.js';

/** The ordered steps a command will run: a pure function of the command and the config. */
export function buildPlan(command: LifecycleCommand, world: WorldConfig): Plan {
  const cluster = world.clusters[command.cluster];
  if (!cluster) throw new ClusterBotError('TARGET_UNKNOWN', `unknown cluster ${command.cluster}`);
  switch (command.verb) {
    case 'up':
      return { command, cluster: cluster.name, steps: upPlan(world, cluster) };
    case 'cilium':
      return { command, cluster: cluster.name, steps: ciliumStepsFor(command.mode, world, cluster) };
    case 'verify':
      return {
        command,
        cluster: cluster.name,
        steps: [verifyGatesStep('1-verify', cluster.name, 'one-read')],
      };
    case 'drift':
      return { command, cluster: cluster.name, steps: [ciliumDriftStep('1-drift', cluster.name)] };
    case 'packages':
      return {
        command,
        cluster: cluster.name,
        steps: packagesPlan(world, cluster, nodeOf(cluster, command.node)),
      };
    case 'health':
      return { command, cluster: cluster.name, steps: healthPlan(world, cluster, command.node) };
    case 'plan':
      return {
        command,
        cluster: cluster.name,
        steps: [planCheckStep('1-check', buildPlan(command.of, world))],
      };
    case 'reprovision': {
      const node = nodeOf(cluster, command.node);
      // The repo decides who the founder is (checked when the job runs); the config may already say.
      if (node.roles.includes('primary')) {
        throw new ClusterBotError(
          'COMMAND_INVALID',
          founderProcedure(node.name, 'its primary role in the config'),
        );
      }
      return { command, cluster: cluster.name, steps: reprovisionPlan(world, cluster, node) };
    }
  }
}

function ciliumStepsFor(mode: CiliumMode | undefined, world: WorldConfig, cluster: ClusterConfig) {
  if (mode?.kind === 'rollback') return ciliumRollbackPlan(cluster, mode.revision);
  if (mode?.kind === 'resume-flux') return resumeFluxPlan(cluster);
  return ciliumPlan(world, cluster);
}

function nodeOf(cluster: ClusterConfig, name: string): NodeEntry {
  const node = cluster.nodes.find((candidate) => candidate.name === name);
  if (!node) throw new ClusterBotError('TARGET_UNKNOWN', `unknown node ${name}`);
  return node;
}
