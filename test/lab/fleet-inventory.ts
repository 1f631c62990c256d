/**
 * A lab fleet: many small clusters beside dev and prod, for the scale-out benchmark. Each is shaped
 * as dev is (three k3s servers, the first the founder) and scoped as prod is: its own inventory
 * groups and `group_vars/k3s_<name>/vars.yml`, targeted with extra vars, never a forked playbook.
 */
export interface FleetCluster {
  /** `fleet01`…: the cluster's name in the world config. */
  readonly name: string;
  /** `k3s_fleet01`: the servers group (children `<group>_primary`, `<group>_secondary`). */
  readonly group: string;
  /** The servers, founder first, each on its own loopback address (127.1.<n>.11-13). */
  readonly nodes: readonly { readonly name: string; readonly address: string }[];
}

export function fleetClusters(count: number): FleetCluster[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    const name = `fleet${number}`;
    return {
      name,
      group: `k3s_${name}`,
      nodes: [1, 2, 3].map((server) => ({
        name: `k3s-${name}-${server}`,
        address: `127.1.${index + 1}.${10 + server}`,
      })),
    };
  });
}

/** The extra vars every whole-cluster play of this cluster runs with (as prod's). */
export function fleetExtraVars(cluster: FleetCluster): Record<string, string> {
  return {
    k3s_hosts: cluster.group,
    k3s_primary_hosts: `${cluster.group}_primary`,
    k3s_secondary_hosts: `${cluster.group}_secondary`,
  };
}

/** The clusters' sections of `inventory/hosts.ini`; hosts run with ansible_connection=local, as every lab host. */
export function fleetInventory(clusters: readonly FleetCluster[]): string {
  return clusters
    .map((cluster) => {
      const [founder, ...others] = cluster.nodes.map(
        (node) => `${node.name} ansible_host=${node.address} ansible_connection=local`,
      );
      return [
        `# --- ${cluster.name} (lab fleet) ---`,
        `[${cluster.group}_primary]`,
        founder,
        '',
        `[${cluster.group}_secondary]`,
        ...others,
        '',
        `[${cluster.group}:children]`,
        `${cluster.group}_primary`,
        `${cluster.group}_secondary`,
        '',
      ].join('\n');
    })
    .join('\n');
}

/** `group_vars/k3s_<name>/vars.yml`: the overrides group_vars/all.yml leaves to each cluster. */
export function fleetGroupVars(cluster: FleetCluster): string {
  const founder = cluster.nodes[0]!;
  return [
    '---',
    `# ${cluster.name}: same roles as dev, scoped overrides (a lab fleet cluster).`,
    `k3s_primary_group: ${cluster.group}_primary`,
    `k3s_servers_group: ${cluster.group}`,
    `k3s_api_host: ${founder.address}`,
    `kube_vip_address: ${founder.address.replace(/\.\d+$/, '.49')}`,
    `cluster_kubeconfig_name: ${cluster.name}.kubeconfig`,
    '',
  ].join('\n');
}

/** k3s.yml's extra vars forming every cluster of the fleet in one run (host patterns joined with ':'). */
export function fleetK3sVars(clusters: readonly FleetCluster[]): string[] {
  const groups = (suffix: string) => clusters.map((cluster) => `${cluster.group}${suffix}`).join(':');
  return [
    '-e',
    `k3s_primary_hosts=${groups('_primary')}`,
    '-e',
    `k3s_secondary_hosts=${groups('_secondary')}`,
  ];
}
