/** Why steps are disruptive, in the words the approval request shows. */
export const CILIUM_REASON =
  'a Cilium rollout replaces the CNI agent on every node, one at a time (maxUnavailable 1); a bad render stops at the first agent';

export function founderWarning(node: string): string {
  return (
    `${node} is the primary (the --cluster-init founder). Re-running k3s on it can found a NEW cluster ` +
    'instead of re-joining the existing one through the VIP. Approve only if its k3s config joins through the VIP.'
  );
}
