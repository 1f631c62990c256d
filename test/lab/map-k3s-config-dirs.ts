import { join } from 'node:path';
import { INFRA_REPO_PATHS } from './infra-repo.js';
import type { SshdLab } from './sshd.js';

/**
 * Each lab node's /etc/rancher/k3s is the folder the lab's k3s role writes for that host
 * (`.lab-out/<host>/k3s` in the infra repo), so what a node answers over SSH for its k3s config is
 * what k3s.yml rendered from `roles/k3s_server/templates/config.yaml.j2`.
 */
export async function mapK3sConfigDirs(
  sshd: SshdLab,
  repoRoot: string,
  addresses: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [host, address] of Object.entries(addresses)) {
    await sshd.mapNodePath(address, '/etc/rancher/k3s', join(repoRoot, INFRA_REPO_PATHS.labOut, host, 'k3s'));
  }
}
