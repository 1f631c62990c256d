import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { repoPaths } from '../repo-paths.js';
import { clusterIdentityProblems } from './cluster-identity-problems.js';
import { readClusterVar } from './read-cluster-var.js';

const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * `KUBECONFIG` for a command on the ops host: the cluster's own kubeconfig the k3s role wrote
 * (`.cache/<cluster_kubeconfig_name>`), never whatever the ops host's shell exports (dev's, in the
 * runbook's dev.sh), and no other cluster's, so a prod run cannot act on dev.
 */
export async function clusterKubeconfigEnv(ctx: StepContext): Promise<{ KUBECONFIG: string }> {
  const name = await readClusterVar(ctx, 'cluster_kubeconfig_name');
  if (!name || !FILE_NAME.test(name.value)) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `cluster_kubeconfig_name is ${name ? `not a plain file name in ${name.file}` : 'set in none of the group_vars'}, so the ops host's commands have no kubeconfig for ${ctx.cluster.name}`,
    );
  }
  // prod inheriting dev's name from all.yml would point every prod command at dev's cluster.
  const shared = await clusterIdentityProblems(ctx, ['cluster_kubeconfig_name']);
  if (shared.length > 0) throw new ClusterBotError('PRECONDITION_FAILED', shared.join('; '));
  return { KUBECONFIG: `${repoPaths(ctx.world).root}/.cache/${name.value}` };
}
