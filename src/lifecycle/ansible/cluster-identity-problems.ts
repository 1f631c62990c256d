import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { clusterHostGroup, DEFAULT_HOST_GROUP } from '../repo/cluster-host-group.js';
import { ALL_VARS_FILE } from '../repo/read-repo-facts.js';
import { type ClusterVar, readClusterVar } from './read-cluster-var.js';

/** The vars that say which cluster a command acts on: two clusters sharing one act on the same cluster. */
export const CLUSTER_IDENTITY_VARS = ['cluster_kubeconfig_name', 'kube_vip_address', 'k3s_api_host'];

/**
 * A cluster whose group vars leave one of these to all.yml inherits dev's value, and every prod
 * command then runs against dev (its kubeconfig, its API host, its VIP). So each must resolve, for
 * this cluster, to a value no other configured cluster resolves to, and k3s_api_host must be one of
 * this cluster's own servers or its own VIP (checkApiHostRender, the preflight), which this makes
 * distinct. Every problem is listed; `names` narrows it.
 */
export async function clusterIdentityProblems(
  ctx: StepContext,
  names: readonly string[] = CLUSTER_IDENTITY_VARS,
): Promise<string[]> {
  const others = Object.values(ctx.world.clusters).filter((cluster) => cluster.name !== ctx.cluster.name);
  const problems: string[] = [];
  // all.yml answers for the cluster of the default group (dev): another cluster inheriting its value
  // is refused when that cluster runs, not when the one it belongs to does.
  const ownsAllVars = clusterHostGroup(ctx.cluster) === DEFAULT_HOST_GROUP;
  const own = await readIdentity(ctx, names, problems);
  for (const other of others) {
    const theirs = await readIdentity({ ...ctx, cluster: other }, names, problems);
    for (const name of names) {
      const mine = own.get(name);
      const their = theirs.get(name);
      if (!mine || !their || mine.value !== their.value) continue;
      if (ownsAllVars && mine.file === ALL_VARS_FILE && their.file === ALL_VARS_FILE) continue;
      problems.push(
        `${name} resolves to ${mine.value} for both ${ctx.cluster.name} (${mine.file}) and ${other.name} (${their.file}): ` +
          `set ${ctx.cluster.name}'s own ${name}, or its commands act on ${other.name}`,
      );
    }
  }
  return problems;
}

/** The addresses this cluster's API may be reached at: its configured servers, and its VIP. */
/** The cluster's servers by config address, name and `hosts.ini` address (`inventory`), and its own VIP. */
export function ownApiHosts(
  ctx: StepContext,
  vip: ClusterVar | undefined,
  inventory: ReadonlyMap<string, string>,
): string[] {
  const servers = ctx.cluster.nodes.filter((node) => node.roles.includes('server'));
  const named = servers.flatMap((node) => [
    node.address,
    node.name,
    inventory.get(node.name) ?? node.address,
  ]);
  return [...new Set([...named, ...(vip ? [vip.value] : [])])];
}

async function readIdentity(
  ctx: StepContext,
  names: readonly string[],
  problems: string[],
): Promise<Map<string, ClusterVar>> {
  const vars = new Map<string, ClusterVar>();
  for (const name of names) {
    try {
      const entry = await readClusterVar(ctx, name);
      if (entry) vars.set(name, entry);
    } catch (error) {
      if (!isClusterBotError(error, 'PRECONDITION_FAILED')) throw error;
      problems.push(`cannot tell ${ctx.cluster.name}'s ${name}: ${error.message}`);
    }
  }
  return vars;
}
