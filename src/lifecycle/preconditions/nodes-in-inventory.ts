import { groupMembers } from '../repo/parse-inventory.js';
import type { Precondition } from './precondition.js';

/**
 * Each node must be a live member of the cluster's group in hosts.ini: a play whose pattern misses
 * a node skips it and still exits 0, so a node missing there would silently not be touched.
 */
export function nodesInInventory(nodes: readonly string[]): Precondition {
  return {
    label: 'nodes in hosts.ini',
    async check(_ctx, repo) {
      const members = new Set(groupMembers(repo.inventory, repo.hostGroup));
      return nodes.flatMap((node) => {
        if (members.has(node)) return [];
        if (repo.inventory.commented.has(node))
          return [`${node} is still commented out of inventory/hosts.ini`];
        if (repo.inventory.active.has(node)) {
          return [
            `${node} is in inventory/hosts.ini but not in the group ${repo.hostGroup} the plays target`,
          ];
        }
        return [`${node} is not in inventory/hosts.ini`];
      });
    },
  };
}
