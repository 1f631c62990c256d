import { groupVaultFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { vaultProblem } from '../steps/vault-decrypts.js';
import type { Precondition } from './precondition.js';

/**
 * The become password lives in the group's vault: without it no play on the cluster can escalate.
 * The file being there is not enough: it must decrypt with the ops host's password file, checked by
 * Ansible itself before any play runs.
 */
export const vaultPresent: Precondition = {
  label: 'vault',
  async check(ctx, repo) {
    const file = groupVaultFile(repo.hostGroup);
    if ((await readRepoText(ctx, file)) === undefined) {
      return [`${file} is missing: no become password, so no ${ctx.cluster.name} play can escalate`];
    }
    const host = ctx.cluster.nodes[0]?.name;
    const problem = host === undefined ? undefined : await vaultProblem(ctx, host, file);
    return problem === undefined ? [] : [problem];
  },
};
