import { stat as statFile } from 'node:fs/promises';
import { ClusterBotError } from '../errors.js';
import type { WorldConfig } from './world-config.js';

export interface FileOwnership {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

export interface SecretFileDeps {
  readonly stat: (path: string) => Promise<FileOwnership>;
  /** The process's own user and group. */
  readonly uid: number;
  readonly gid: number;
}

const realDeps = (): SecretFileDeps => ({
  stat: statFile,
  uid: process.getuid?.() ?? -1,
  gid: process.getgid?.() ?? -1,
});

/** The files that hold keys to the clusters: the SSH private keys and the kubeconfigs. */
export function secretFilesOf(world: WorldConfig): string[] {
  return [
    ...new Set([
      world.ops.privateKeyPath,
      ...Object.values(world.clusters).flatMap((cluster) => [
        cluster.nodeSsh.privateKeyPath,
        cluster.kubeconfigPath,
      ]),
    ]),
  ];
}

/** The known_hosts files the config names, by the key that names them: the host keys the bot trusts. */
function knownHostsFilesOf(world: WorldConfig): [key: string, path: string][] {
  const named: [key: string, path: string][] = [
    ['ops.knownHostsPath', world.ops.knownHostsPath],
    ...Object.entries(world.clusters).map(([name, cluster]): [string, string] => [
      `clusters.${name}.nodeSsh.knownHostsPath`,
      cluster.nodeSsh.knownHostsPath,
    ]),
  ];
  return named.filter(([, path], i) => named.findIndex((other) => other[1] === path) === i);
}

/**
 * Refuses to start when a secret-bearing file can be read by other users: world-readable, or
 * group-readable while the bot owns it (chmod 600). Like OpenSSH, a file someone else owns (root)
 * and only the bot's own group may read is accepted: that is what a Kubernetes Secret volume with
 * `fsGroup` looks like (kubelet adds the group's read bit whatever `defaultMode` says). A known_hosts
 * file others may write is refused too: whoever writes it chooses which hosts the bot trusts. A
 * missing file is left to the code that opens it.
 */
export async function checkSecretFiles(world: WorldConfig, deps: SecretFileDeps = realDeps()): Promise<void> {
  const problems: string[] = [];
  for (const path of secretFilesOf(world)) {
    const file = await deps.stat(path).catch(() => undefined);
    if (!file) continue;
    const worldReadable = (file.mode & 0o004) !== 0;
    const groupReadable = (file.mode & 0o040) !== 0;
    const onlyOwnGroup = file.uid !== deps.uid && file.gid === deps.gid;
    if (worldReadable || (groupReadable && !onlyOwnGroup)) {
      problems.push(
        `${path}: mode ${octalMode(file.mode)} lets other users read this secret (${worldReadable ? 'world' : 'group'}-readable); chmod 600 it`,
      );
    }
  }
  for (const [key, path] of knownHostsFilesOf(world)) {
    const file = await deps.stat(path).catch(() => undefined);
    if (!file || (file.mode & 0o022) === 0) continue;
    problems.push(
      `${key} (${path}): mode ${octalMode(file.mode)} lets other users write the host keys the bot trusts (${(file.mode & 0o002) !== 0 ? 'world' : 'group'}-writable); chmod go-w it`,
    );
  }
  if (problems.length > 0) {
    throw new ClusterBotError(
      'CONFIG_INVALID',
      `files the bot trusts are open to other users:\n${problems.join('\n')}`,
      {
        details: { problems },
      },
    );
  }
}

const octalMode = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');
