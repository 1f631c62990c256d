import { healthPlan } from '../plans/health-plan.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

/** The repo's standalone diagnostic, on one node or (node absent) the whole cluster. */
export interface HealthCommand {
  readonly verb: 'health';
  readonly cluster: string;
  readonly node?: string | undefined;
}

export const health: VerbSpec<HealthCommand> = {
  verb: 'health',
  target: 'node or cluster',
  mutating: false,
  flags: [],
  help: [
    "`health <node|cluster>`: the repo's node-health.yml diagnostic, one line per host; changes nothing",
  ],
  read: targetOnly((target) => ({ verb: 'health', ...target })),
  plan: (command, world, cluster) => healthPlan(world, cluster, command.node),
};
