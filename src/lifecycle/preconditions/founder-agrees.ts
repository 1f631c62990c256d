import { notSetIn } from '../repo/read-repo-facts.js';
import type { Precondition } from './precondition.js';

/**
 * The --cluster-init founder is whoever hosts.ini puts in the group `k3s_primary_group` names. A
 * config that says otherwise is out of date, and acting on it could re-found the cluster.
 */
export const founderAgrees: Precondition = {
  label: 'founder per hosts.ini',
  async check(ctx, repo) {
    const { primary } = repo;
    if (!primary) {
      return [`cannot tell the founder: ${notSetIn(repo, 'k3s_primary_group')}`];
    }
    const where = `${primary.group} (k3s_primary_group in ${primary.file})`;
    if (primary.members.length !== 1) {
      return [
        primary.members.length === 0
          ? `hosts.ini has no host in the founder group ${where}`
          : `hosts.ini has ${primary.members.length} hosts in the founder group ${where} (${primary.members.join(', ')}): exactly one node may found the cluster`,
      ];
    }
    const founder = primary.members[0]!;
    const configured = ctx.cluster.nodes.find((node) => node.roles.includes('primary'));
    if (configured && configured.name !== founder) {
      return [
        `the config names ${configured.name} the primary (clusters.${ctx.cluster.name}.nodes.${configured.name}.roles), ` +
          `but hosts.ini puts ${founder} in ${where}: fix the config to match the repo`,
      ];
    }
    return [];
  },
};
