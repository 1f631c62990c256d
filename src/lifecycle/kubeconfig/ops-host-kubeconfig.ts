import { readClusterVar } from '../ansible/read-cluster-var.js';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** What became of the cluster's kubeconfig on the ops host: used, not there, or there and refused. */
export type OpsHostKubeconfig =
  | { readonly kind: 'adopted'; readonly relative: string; readonly keptAt: string; readonly nodes: number }
  /** The repo names no file, or the file is not there (yet): nothing to try. */
  | { readonly kind: 'none'; readonly why: string }
  /** `relative` once a file was read: the proof refused it (the keeper's reason); without, its name is unusable. */
  | { readonly kind: 'refused'; readonly why: string; readonly relative?: string };

/**
 * The kubeconfig the k3s role keeps on the ops host, `<repo>/.cache/<cluster_kubeconfig_name>` as the
 * cluster resolves the name, fetched and handed to the keeper, which proves it (allowlist, a server the
 * repo names for the cluster, it reaches the cluster and lists only its nodes) before anything uses
 * it. Read afresh each time: a worker relies on no file another one (or it, before a restart) kept.
 * Its content never goes to the thread or the log.
 */
export async function adoptOpsHostKubeconfig(ctx: StepContext): Promise<OpsHostKubeconfig> {
  const name = await readClusterVar(ctx, 'cluster_kubeconfig_name');
  if (!name) {
    return {
      kind: 'none',
      why: 'cluster_kubeconfig_name is set in none of its group_vars, so there is no kubeconfig to fetch',
    };
  }
  if (!FILE_NAME.test(name.value)) {
    return {
      kind: 'refused',
      why: `cluster_kubeconfig_name in ${name.file} is not a plain file name: ${JSON.stringify(name.value)}`,
    };
  }
  const relative = `.cache/${name.value}`;
  const read = await captureRemote(ctx, opsTarget(ctx.world), [
    'cat',
    '--',
    `${repoPaths(ctx.world).root}/${relative}`,
  ]);
  if (read.exitCode !== 0 || read.stdout.trim() === '') {
    return {
      kind: 'none',
      why: `${relative} (${name.file}) cannot be read on the ops host: ${read.stderr.trim() || 'empty'}`,
    };
  }
  try {
    const adopted = await ctx.kubeconfigs.adopt(
      ctx.cluster.name,
      `${read.stdout}\n`,
      await namedApiHosts(ctx),
    );
    return { kind: 'adopted', relative, ...adopted };
  } catch (error) {
    return { kind: 'refused', relative, why: (error as Error).message };
  }
}

/** The API hosts the repo names for the cluster, as it resolves them: an adopted kubeconfig must use one. */
async function namedApiHosts(ctx: StepContext): Promise<string[]> {
  const named = await Promise.all(
    ['k3s_api_host', 'kube_vip_address'].map((name) => readClusterVar(ctx, name)),
  );
  return named.flatMap((entry) => (entry && entry.value.trim() !== '' ? [entry.value.trim()] : []));
}
