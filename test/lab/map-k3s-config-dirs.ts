import { join } from 'node:path';
import { INFRA_REPO_PATHS } from './infra-repo.js';
import type { SshdLab } from './sshd.js';

/**
 * Each lab node's /etc/rancher/k3s is the folder the lab's k3s role writes for that host
 * (`.lab-out/<host>/k3s` in the infra repo), so what a node answers over SSH for its k3s config is
 * what k3s.yml rendered from `roles/k3s_server/templates/config.yaml.j2`; a node wiped outside the
 * bot is one whose folder is gone. Its /var/lib/rancher/k3s (k3s's data dir, etcd included: kube-sim
 * holds the lab's cluster, so the role writes none) is a folder of its own too
 * (`.lab-out/<host>/k3s-data`), never this machine's.
 */
export async function mapK3sConfigDirs(
  sshd: SshdLab,
  repoRoot: string,
  addresses: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [host, address] of Object.entries(addresses)) {
    const out = join(repoRoot, INFRA_REPO_PATHS.labOut, host);
    await sshd.mapNodePath(address, '/etc/rancher/k3s', join(out, 'k3s'));
    await sshd.mapNodePath(address, '/var/lib/rancher/k3s', join(out, 'k3s-data'));
  }
}
