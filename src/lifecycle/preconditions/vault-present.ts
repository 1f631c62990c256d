import { groupVaultFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import type { Precondition } from './precondition.js';

/** The become password lives in the group's vault: without it no play on the cluster can escalate. */
export const vaultPresent: Precondition = {
  label: 'vault',
  async check(ctx, repo) {
    const file = groupVaultFile(repo.hostGroup);
    return (await readRepoText(ctx, file)) === undefined
      ? [`${file} is missing: no become password, so no ${ctx.cluster.name} play can escalate`]
      : [];
  },
};
