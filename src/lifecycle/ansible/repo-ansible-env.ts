import type { WorldConfig } from '../../config/world-config.js';
import { repoPaths } from '../repo-paths.js';
import { ANSIBLE_ENV } from './playbook-invocation.js';

/**
 * Plain output and the repo's own ansible.cfg: what an ansible run needs before the cluster's
 * kubeconfig is known (rendering the var that names it). Ansible skips an ANSIBLE_CONFIG that does
 * not exist, so the ansible.cfg precondition proves Ansible reads it.
 */
export function repoAnsibleEnv(world: WorldConfig): Record<string, string> {
  return { ...ANSIBLE_ENV, ANSIBLE_CONFIG: repoAnsibleConfig(world) };
}

/** Where the repo's ansible.cfg is on the ops host. */
export function repoAnsibleConfig(world: WorldConfig): string {
  return `${repoPaths(world).ansible}/ansible.cfg`;
}
