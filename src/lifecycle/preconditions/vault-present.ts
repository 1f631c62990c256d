import type { ClusterConfig } from '../../config/world-config.js';
import { vaultProblems } from '../ansible/vault-decrypts.js';
import { groupVaultFile, type RepoFacts } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import type { Precondition } from './precondition.js';

/**
 * The become password lives in the group's vault: without it no play on the cluster can escalate.
 * The file being there is not enough: it must decrypt with the ops host's password file and give
 * every host the plan escalates on a become password (host_vars or a group of its own may take it
 * away from one), checked by Ansible itself in one call before any play runs. Hosts hosts.ini does
 * not list are left to the inventory checks, which name them.
 */
export function vaultPresent(escalatesOn: (repo: RepoFacts) => readonly string[]): Precondition {
  return {
    label: 'vault',
    async check(ctx, repo) {
      const file = groupVaultFile(repo.hostGroup);
      if ((await readRepoText(ctx, file)) === undefined) {
        return [`${file} is missing: no become password, so no ${ctx.cluster.name} play can escalate`];
      }
      const hosts = [...new Set(escalatesOn(repo))].filter((host) => repo.inventory.active.has(host));
      return vaultProblems(ctx, hosts, file);
    },
  };
}

/** A whole-cluster plan escalates on every node of the cluster. */
export function everyNodeOf(cluster: ClusterConfig): () => string[] {
  return () => cluster.nodes.map((node) => node.name);
}
