import { notSetIn } from '../repo/read-repo-facts.js';
import type { Precondition } from './precondition.js';

/**
 * An HA cluster keeps etcd quorum only with an odd number of servers, three at least; the count is
 * the inventory's (the servers the roles will form), not the config's list.
 */
export const productionServers: Precondition = {
  label: 'odd number of servers ≥ 3',
  async check(ctx, repo) {
    const { servers } = repo;
    if (!servers) {
      return [`cannot count the servers: ${notSetIn(repo, 'k3s_servers_group')}`];
    }
    const count = servers.members.length;
    if (count >= 3 && count % 2 === 1) return [];
    const listed = count === 0 ? 'none' : servers.members.join(', ');
    return [
      `${ctx.cluster.name} has ${count} server${count === 1 ? '' : 's'} in inventory/hosts.ini (${servers.group}: ${listed}): ` +
        'a production cluster needs an odd number of servers, at least 3',
    ];
  },
};
