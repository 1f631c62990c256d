import { ClusterBotError } from '../../errors.js';
import { reprovisionPlan } from '../plans/reprovision-plan.js';
import { founderProcedure } from '../preconditions/founder-procedure.js';
import { nodeOf, targetOnly, type VerbSpec } from './verb-spec.js';

export interface ReprovisionCommand {
  readonly verb: 'reprovision';
  readonly cluster: string;
  readonly node: string;
}

const NO_PRIMARY_FLAG =
  '--primary is not accepted: the --cluster-init founder (the k3s_primary_group group in hosts.ini) is never ' +
  'reprovisioned in place, since re-running k3s on it after a wipe founds a new cluster. Move the founder role to ' +
  'another server in inventory/hosts.ini, commit, then reprovision the node';

export const reprovision: VerbSpec<ReprovisionCommand> = {
  verb: 'reprovision',
  target: 'node',
  mutating: true,
  flags: [],
  refusedFlags: { '--primary': NO_PRIMARY_FLAG },
  help: [
    '`reprovision <node>`: take a node out (etcd snapshot first), rebuild it, re-join it; never the founder',
  ],
  read: targetOnly(({ cluster, node }) => ({ verb: 'reprovision', cluster, node })),
  plan(command, world, cluster) {
    const node = nodeOf(cluster, command.node);
    // The repo decides who the founder is (checked when the job runs); the config may already say.
    if (node.roles.includes('primary')) {
      throw new ClusterBotError(
        'COMMAND_INVALID',
        founderProcedure(node.name, 'its primary role in the config'),
      );
    }
    return reprovisionPlan(world, cluster, node);
  },
};
