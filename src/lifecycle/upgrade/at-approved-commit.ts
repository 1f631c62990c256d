import type { Precondition } from '../preconditions/precondition.js';
import { refusalsOf } from '../preconditions/refusals-of.js';
import { readRepoCommit } from '../repo/read-repo-commit.js';
import { requireCleanCheckout } from '../repo/require-clean-checkout.js';
import { approvedUpgrade } from './upgrade-facts.js';

/**
 * k3s.yml installs whatever `k3s_version` the checkout says: each server's run is checked, right
 * before it starts, to be at the commit the upgrade was approved at, with nothing uncommitted.
 */
export const atApprovedCommit: Precondition = {
  label: 'the approved commit',
  async check(ctx) {
    const { commit } = approvedUpgrade(ctx);
    const now = await readRepoCommit(ctx);
    const moved =
      now === commit
        ? []
        : [
            `the infra repo moved from ${commit.slice(0, 12)} (approved) to ${now.slice(0, 12)}: k3s.yml would install what the new commit says; run the upgrade again to approve it`,
          ];
    return [...moved, ...(await refusalsOf([() => requireCleanCheckout(ctx)]))];
  },
};
