import type { Precondition } from '../preconditions/precondition.js';
import { sameK3sRelease } from './k3s-version.js';
import { approvedUpgrade } from './upgrade-facts.js';

/**
 * The one-minor rule was judged at the approval against the version each server ran then; a server
 * reinstalled since (at another version) would take a jump nobody judged. So right before its
 * k3s.yml the server must still run the approved "from" version, or the target already (a k3s.yml
 * run interrupted after the restart, approved again).
 */
export function stillRunsApprovedVersion(server: string): Precondition {
  return {
    label: `${server}'s approved version`,
    async check(ctx) {
      const { target, servers } = approvedUpgrade(ctx);
      const from = servers.find((entry) => entry.server === server)?.from;
      const now = (await ctx.kube.listNodes()).find((node) => node.name === server)?.kubeletVersion;
      if ((from !== undefined && sameK3sRelease(now, from)) || sameK3sRelease(now, target)) return [];
      return [
        `${server} runs ${now ?? 'an unknown version (no Node)'}, not ${from ?? '?'} as approved: the one-minor-at-a-time rule was judged for ${from ?? '?'} → ${target}; run the upgrade again`,
      ];
    },
  };
}
