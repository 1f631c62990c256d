import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { playbookStep } from '../playbook/playbook-step.js';
import { reportNodeHealth } from '../playbook/report-node-health.js';
import { clusterHostGroup } from '../repo/cluster-host-group.js';

/**
 * The repo's standalone diagnostic, pointed at one node or at the cluster's inventory group. As
 * the runbook runs it (`-e node_health_hosts=k3s_prod`), it takes that one var: the cluster's extra
 * vars name the bring-up plays' targets, which node-health.yml does not read.
 */
export function healthPlan(world: WorldConfig, cluster: ClusterConfig, node?: string): Step[] {
  const hosts = node ?? clusterHostGroup(cluster);
  return [
    playbookStep(world, {
      id: '1-node-health',
      invocation: { playbook: 'node-health.yml', extraVars: { node_health_hosts: hosts } },
      target: node ?? `${cluster.name}: all nodes (${hosts})`,
      // It only looks, so no --list-hosts proof first: the report names what the recap did not reach.
      hosts: 'read-only',
      report: reportNodeHealth({ hosts, nodes: node ? [node] : cluster.nodes.map((n) => n.name) }),
    }),
  ];
}
