import { isClusterBotError } from '../../errors.js';
import type { NodeState } from '../ports/kube-gateway.js';
import { founderProcedure } from './founder-procedure.js';
import type { Precondition } from './precondition.js';

/**
 * On a formed cluster k3s.yml's founder play must find its founder alive: registered, Ready and an
 * etcd member. A founder wiped outside the bot would get `--cluster-init` again and found a second
 * cluster (fresh etcd) contending for the VIP. A cluster with no node answering is a first run, whose
 * approval the k3s step asks for; the founder's identity is founderAgrees's to check.
 */
export const founderInCluster: Precondition = {
  label: 'founder in the cluster',
  async check(ctx, repo) {
    const { primary } = repo;
    const founder = primary?.members.length === 1 ? primary.members[0] : undefined;
    if (!primary || !founder) return [];
    let nodes: NodeState[];
    try {
      nodes = await ctx.kube.listNodes();
    } catch (error) {
      if (isClusterBotError(error, 'CANCELLED')) throw error;
      return [];
    }
    if (nodes.length === 0) return [];
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
        `k3s.yml would run --cluster-init on it. ${founderProcedure(founder, `the ${primary.group} group in hosts.ini`)}`,
    ];
  },
};
