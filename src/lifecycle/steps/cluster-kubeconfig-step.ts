import { ClusterBotError } from '../../errors.js';
import type { Step, StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemote } from './capture-remote.js';
import { readClusterVar } from './read-cluster-var.js';
import { repoPaths } from './repo-paths.js';

const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * After k3s.yml the cluster must be reachable for everything that follows. When the kubeconfig in
 * use is missing or rejected (a prod init, a cluster founded again from scratch), the one the k3s
 * role just wrote on the ops host, `.cache/<cluster_kubeconfig_name>`, is fetched, proved to reach
 * the cluster, and used from then on. Its content never goes to the thread or the log.
 */
export function clusterKubeconfigStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'cluster kubeconfig',
    target: `${cluster}: the kubeconfig in use, else the k3s role's .cache/<cluster_kubeconfig_name>`,
    async run(ctx) {
      let failure: string;
      try {
        const nodes = await ctx.kube.listNodes();
        return {
          status: 'succeeded',
          summary: `the kubeconfig in use reaches ${cluster} (${nodes.length} nodes)`,
        };
      } catch (error) {
        failure = (error as Error).message;
      }
      await ctx.progress(`the kubeconfig in use does not reach ${cluster}: ${failure}`);
      const cached = await cachedKubeconfig(ctx, failure);
      const adopted = await ctx.kubeconfigs
        .adopt(cluster, cached.text, await namedApiHosts(ctx))
        .catch((error: unknown) => {
          throw new ClusterBotError(
            'KUBE_UNREACHABLE',
            `the kubeconfig in use does not reach ${cluster} (${failure}), and neither does ${cached.relative}: ${(error as Error).message}`,
            { cause: error, details: { cluster, file: cached.relative } },
          );
        });
      return {
        status: 'succeeded',
        summary:
          `now using ${cached.relative} from the ops host (k3s.yml wrote it; it reaches ${cluster}: ${adopted.nodes} nodes), ` +
          `kept at ${adopted.keptAt} and preferred from now on`,
      };
    },
  };
}

async function cachedKubeconfig(
  ctx: StepContext,
  failure: string,
): Promise<{ text: string; relative: string }> {
  const name = await readClusterVar(ctx, 'cluster_kubeconfig_name');
  const refuse = (why: string) =>
    new ClusterBotError(
      'KUBE_UNREACHABLE',
      `the kubeconfig in use does not reach ${ctx.cluster.name} (${failure}); ${why}`,
      {
        details: { cluster: ctx.cluster.name },
      },
    );
  if (!name)
    throw refuse(
      'cluster_kubeconfig_name is set in none of its group_vars, so there is no kubeconfig to fetch',
    );
  if (!FILE_NAME.test(name.value)) {
    throw refuse(
      `cluster_kubeconfig_name in ${name.file} is not a plain file name: ${JSON.stringify(name.value)}`,
    );
  }
  const relative = `.cache/${name.value}`;
  const read = await captureRemote(ctx, opsTarget(ctx.world), [
    'cat',
    '--',
    `${repoPaths(ctx.world).root}/${relative}`,
  ]);
  if (read.exitCode !== 0 || read.stdout.trim() === '') {
    throw refuse(
      `${relative} (${name.file}) cannot be read on the ops host: ${read.stderr.trim() || 'empty'}`,
    );
  }
  return { text: `${read.stdout}\n`, relative };
}

/** The API hosts the repo names for the cluster, as it resolves them: an adopted kubeconfig must use one. */
async function namedApiHosts(ctx: StepContext): Promise<string[]> {
  const named = await Promise.all(
    ['k3s_api_host', 'kube_vip_address'].map((name) => readClusterVar(ctx, name)),
  );
  return named.flatMap((entry) => (entry && entry.value.trim() !== '' ? [entry.value.trim()] : []));
}
