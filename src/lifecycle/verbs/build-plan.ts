import type { WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { LifecycleCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';
import { planCheckStep } from '../plans/plan-check-step.js';
import { type CommandOf, type PlannedVerb, verbSpec } from './lifecycle-verbs.js';

/** The ordered steps a command will run: a pure function of the command and the config, its verb's spec says which. */
export function buildPlan(command: LifecycleCommand, world: WorldConfig): Plan {
  const cluster = world.clusters[command.cluster];
  if (!cluster) throw new ClusterBotError('TARGET_UNKNOWN', `unknown cluster ${command.cluster}`);
  if (command.verb === 'plan') {
    return {
      command,
      cluster: cluster.name,
      steps: [planCheckStep('1-check', buildPlan(command.of, world))],
    };
  }
  return { command, cluster: cluster.name, steps: stepsOf(command, world) };
}

/** The verb's own spec builds its own command's steps (the key ties the command to its spec). */
function stepsOf<Verb extends PlannedVerb>(
  command: CommandOf<Verb> & { readonly verb: Verb },
  world: WorldConfig,
) {
  return verbSpec(command.verb).plan(command, world, world.clusters[command.cluster]!);
}
