import { packagesPlan } from '../plans/packages-plan.js';
import { nodeOf, targetOnly, type VerbSpec } from './verb-spec.js';

export interface PackagesCommand {
  readonly verb: 'packages';
  readonly cluster: string;
  readonly node: string;
}

export const packages: VerbSpec<PackagesCommand> = {
  verb: 'packages',
  target: 'node',
  mutating: true,
  flags: [],
  help: ['`packages <node>`: packages-only node baseline'],
  read: targetOnly(({ cluster, node }) => ({ verb: 'packages', cluster, node })),
  plan: (command, world, cluster) => packagesPlan(world, cluster, nodeOf(cluster, command.node)),
};
