import { formatDuration } from '../../config/parse-duration.js';
import { isClusterBotError } from '../../errors.js';
import { listServerSnapshots } from '../snapshots/list-server-snapshots.js';
import type { EtcdSnapshot } from '../snapshots/parse-snapshot-list.js';
import type { Gate } from './gate.js';

/**
 * A restore needs a recent snapshot on some server's disk: k3s takes one at 00:00 and 12:00, so
 * none younger than the cluster's snapshotMaxAge (24 h by default) means the schedule stopped. One
 * fresh server is enough, so the servers are asked in order until one has it; a server that cannot
 * be asked is named, not fatal.
 */
export const etcdSnapshotFreshGate: Gate = {
  name: 'etcd snapshot fresh',
  watches: [],
  async evaluate(ctx) {
    const maxAge = formatDuration(ctx.cluster.snapshotMaxAgeMs);
    const servers = ctx.cluster.nodes.filter((node) => node.roles.includes('server'));
    const now = ctx.clock.now();
    const unasked: string[] = [];
    let newest: { snapshot: EtcdSnapshot; server: string } | undefined;
    for (const server of servers) {
      // Quietly: the gate's verdict names the newest snapshot; the listing is not the step's output.
      const listed = await listServerSnapshots({ ...ctx, output: () => undefined }, server).catch(
        (error: unknown) => {
          if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
          return error.message;
        },
      );
      if (typeof listed === 'string') {
        unasked.push(`${server.name}: ${listed}`);
        continue;
      }
      for (const snapshot of listed) {
        if (!newest || snapshot.createdAt > newest.snapshot.createdAt)
          newest = { snapshot, server: server.name };
      }
      if (newest && now - newest.snapshot.createdAt < ctx.cluster.snapshotMaxAgeMs) {
        const age = formatDuration(Math.max(0, now - newest.snapshot.createdAt));
        return {
          passed: true,
          observed: `newest etcd snapshot ${newest.snapshot.name} on ${newest.server}, ${age} old (at most ${maxAge})`,
        };
      }
    }
    const seen = newest
      ? `newest etcd snapshot ${newest.snapshot.name} on ${newest.server} is ${formatDuration(now - newest.snapshot.createdAt)} old, older than snapshotMaxAge ${maxAge}`
      : `no etcd snapshot on any server (${servers.map((server) => server.name).join(', ')})`;
    return { passed: false, observed: [seen, ...unasked.map((why) => `not listed: ${why}`)].join('; ') };
  },
};
