import { readClusterFormation } from './cluster-formation.js';
import { founderProcedure } from './founder-procedure.js';
import type { Precondition } from './precondition.js';
import { unprovenFirstRun } from './unproven-first-run.js';

/**
 * On a formed cluster k3s.yml's founder play must find its founder alive: registered, Ready and an
 * etcd member. A founder wiped outside the bot would get `--cluster-init` again and found a second
 * cluster (fresh etcd) contending for the VIP. Only a proven first run (no node registered, or no API
 * and no server in hosts.ini with k3s) goes on, to the approval the k3s step asks for; the founder's
 * identity is founderAgrees's to check.
 */
export const founderInCluster: Precondition = {
  label: 'founder in the cluster',
  async check(ctx, repo) {
    const { primary } = repo;
    const founder = primary?.members.length === 1 ? primary.members[0] : undefined;
    if (!primary || !founder) return [];
    const source = `the ${primary.group} group in hosts.ini`;
    const formation = await readClusterFormation(ctx, async () => repo);
    if (formation.kind === 'first-run') return [];
    if (formation.kind === 'unproven') return unprovenFirstRun(ctx.cluster.name, founder, source, formation);
    const { nodes } = formation;
    const node = nodes.find((candidate) => candidate.name === founder);
    const state = !node
      ? 'is not registered'
      : !node.ready
        ? `is not Ready (${node.readyReason ?? 'no reason given'})`
        : !node.etcd
          ? 'carries no etcd role (node-role.kubernetes.io/etcd)'
          : undefined;
    if (!state) return [];
    return [
      `${ctx.cluster.name} is formed (${nodes.map((n) => n.name).join(', ')} answer) but its founder ${founder} ${state}: ` +
        `k3s.yml would run --cluster-init on it. ${founderProcedure(founder, source)}`,
    ];
  },
};
