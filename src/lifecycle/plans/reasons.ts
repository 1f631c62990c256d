/** Why steps are disruptive, in the words the approval request shows. */
export const CILIUM_REASON =
  'a Cilium rollout replaces the CNI agent on every node, one at a time (maxUnavailable 1); a bad render stops at the first agent';
