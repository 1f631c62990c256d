import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorldConfig } from '../config/world-config.js';
import { ClusterBotError } from '../errors.js';
import type { AdoptedKubeconfig } from '../lifecycle/ports/kubeconfig-keeper.js';
import type { KubeGatewayOptions } from './create-kube-gateway.js';
import { createLazyKubeGateway } from './create-lazy-kube-gateway.js';

export const adoptedKubeconfigPath = (dir: string, cluster: string) => join(dir, `${cluster}.kubeconfig`);

/**
 * Keeps a kubeconfig for the cluster under `dir`, once it is shown to reach that cluster and no other;
 * otherwise keeps nothing and says why.
 */
export async function adoptKubeconfig(
  world: WorldConfig,
  dir: string,
  cluster: string,
  kubeconfig: string,
  options: KubeGatewayOptions | undefined,
): Promise<AdoptedKubeconfig> {
  const kept = adoptedKubeconfigPath(dir, cluster);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const candidate = `${kept}.candidate`;
  // Removed first: a leftover file would keep its own mode; a new one is created 0600.
  await rm(candidate, { force: true });
  await writeFile(candidate, kubeconfig, { mode: 0o600 });
  let names: string[];
  try {
    names = (await createLazyKubeGateway(candidate, options).listNodes()).map((node) => node.name);
  } catch (error) {
    await rm(candidate, { force: true });
    throw new ClusterBotError(
      'KUBE_UNREACHABLE',
      `that kubeconfig does not reach ${cluster}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  // Reaching *a* cluster is not enough: another cluster's kubeconfig (dev's file, named by a
  // missing prod override) would point every gate and drain of this one at the wrong nodes.
  const own = new Set(world.clusters[cluster]?.nodes.map((node) => node.name));
  const foreign = names.filter((name) => !own.has(name));
  if (names.length === 0 || foreign.length > 0) {
    await rm(candidate, { force: true });
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      names.length === 0
        ? `that kubeconfig reaches a cluster with no node: it cannot be shown to be ${cluster}'s; kept nothing`
        : `that kubeconfig reaches a cluster with nodes that are not ${cluster}'s (${foreign.join(', ')}); kept nothing`,
    );
  }
  // A rename: a process reading the kept file sees the old one or the new one, never half of it.
  await rename(candidate, kept);
  return { keptAt: kept, nodes: names.length };
}
