import type { WorldConfig } from '../../config/world-config.js';
import { repoPaths } from '../repo-paths.js';

/**
 * Ansible's magic variables as a role sees them on the ops host: every playbook lives in
 * playbooks/ (so that is `playbook_dir` for whichever runs the role), the inventory in inventory/,
 * a role under roles/.
 */
export function ansibleMagicVars(world: WorldConfig, role?: string): Record<string, string> {
  const { ansible } = repoPaths(world);
  return {
    playbook_dir: `${ansible}/playbooks`,
    inventory_dir: `${ansible}/inventory`,
    ...(role ? { role_path: `${ansible}/roles/${role}` } : {}),
  };
}
