/**
 * Why the founder is never rebuilt in place, and what to do instead: the same words wherever it is
 * refused. `source` says who names it the founder (hosts.ini's group, or the config).
 */
export function founderProcedure(node: string, source: string): string {
  return (
    `${node} is the --cluster-init founder (${source}): re-running k3s on it after a wipe founds a NEW ` +
    'cluster (fresh etcd) whose kube-vip contends for the same VIP. Move the founder role to another server ' +
    `in inventory/hosts.ini, commit, then reprovision ${node}`
  );
}
