import { readFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorldConfig } from '../config/world-config.js';
import { ClusterBotError } from '../errors.js';
import type { AdoptedKubeconfig } from '../lifecycle/ports/kubeconfig-keeper.js';
import { checkKubeconfig } from './check-kubeconfig.js';
import type { KubeGatewayOptions } from './create-kube-gateway.js';
import { createLazyKubeGateway } from './create-lazy-kube-gateway.js';

const adoptedKubeconfigPath = (dir: string, cluster: string) => join(dir, `${cluster}.kubeconfig`);

/** The port k3s serves its API on, where the repo names only a host (k3s_api_host, kube_vip_address). */
const K3S_API_PORT = 6443;

/**
 * Keeps a kubeconfig for the cluster under `dir`, once it passed the allowlist, names a server the
 * operators already named for this cluster (the configured kubeconfig's, or `namedHosts` on 6443),
 * and is shown to reach that cluster and no other; otherwise keeps nothing and says why.
 */
export async function adoptKubeconfig(
  world: WorldConfig,
  dir: string,
  cluster: string,
  kubeconfig: string,
  namedHosts: readonly string[],
  options: KubeGatewayOptions | undefined,
): Promise<AdoptedKubeconfig> {
  // Checked before anything is written or loaded: the text comes from a host the bot does not own.
  const { server } = checkKubeconfig(kubeconfig, `for ${cluster} from the ops host`);
  const named = namedServers(world.clusters[cluster]?.kubeconfigPath, namedHosts);
  if (!named.has(new URL(server).origin)) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      `that kubeconfig's server ${server} is not one named for ${cluster} (${[...named].join(', ') || 'none'}: the configured kubeconfig's server, k3s_api_host or kube_vip_address on ${K3S_API_PORT}); kept nothing`,
    );
  }
  const kept = adoptedKubeconfigPath(dir, cluster);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode as it was.
  await chmod(dir, 0o700);
  const candidate = `${kept}.candidate`;
  // Removed first: a leftover file would keep its own mode; a new one is created 0600.
  await rm(candidate, { force: true });
  await writeFile(candidate, kubeconfig, { mode: 0o600, flag: 'wx' });
  let names: string[];
  try {
    names = (await createLazyKubeGateway(candidate, { ...options, ownFile: true }).listNodes()).map(
      (node) => node.name,
    );
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

/** The API servers the operators named for a cluster, as URL origins. */
function namedServers(configuredPath: string | undefined, hosts: readonly string[]): Set<string> {
  const origins = [
    ...hosts.map((host) => originOf(`https://${host}:${K3S_API_PORT}`)),
    configuredPath ? configuredServer(configuredPath) : undefined,
  ];
  return new Set(origins.filter((origin): origin is string => origin !== undefined));
}

/** The configured kubeconfig's server, when it is readable and passes the allowlist. */
function configuredServer(path: string): string | undefined {
  try {
    return originOf(checkKubeconfig(readFileSync(path, 'utf8'), path).server);
  } catch {
    return undefined;
  }
}

const originOf = (url: string): string | undefined => (URL.canParse(url) ? new URL(url).origin : undefined);
