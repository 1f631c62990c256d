/** Why steps are disruptive, in the words the approval request shows. */
export const CILIUM_REASON =
  'a Cilium rollout replaces the CNI agent on every node, one at a time (maxUnavailable 1); a bad render stops at the first agent';

/**
 * Bring-up may be Cilium's first install, which is no rolling update: maxUnavailable bounds only the
 * replacement of running agents, so on a cold (prod) bootstrap every agent starts at once.
 */
export const CILIUM_UP_REASON =
  'installs or upgrades Cilium. On a cluster where Cilium runs, the rollout replaces the CNI agent on every node one at a time ' +
  "(maxUnavailable 1) and a bad render stops at the first agent. On a first install (a cold bootstrap, as prod's) " +
  'maxUnavailable does not apply: every agent starts at once, so a bad render takes every node';
