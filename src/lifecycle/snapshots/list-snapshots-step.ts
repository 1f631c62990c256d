import { ClusterBotError, isClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';
import { BOT_SNAPSHOT_PREFIX } from './etcd-snapshot-step.js';
import { listServerSnapshots } from './list-server-snapshots.js';
import type { EtcdSnapshot } from './parse-snapshot-list.js';

/** The name the bot's snapshot before a node goes away gets, with k3s's suffix. */
const BOT_SNAPSHOT = new RegExp(`^${BOT_SNAPSHOT_PREFIX}job-(\\d+)-`);
const LISTED = 40;

interface ServerSnapshot extends EtcdSnapshot {
  readonly server: string;
}

/**
 * Every server's etcd snapshots in one list, newest first: each snapshot lives on the disk of the
 * server that took it, so a restore needs to know which. `k3s etcd-snapshot ls` runs as root on each
 * (through the ops host's Ansible where sudo wants a password). A server that cannot be asked is
 * named; the step fails only when none could.
 */
export function listSnapshotsStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'etcd snapshots',
    target: `${cluster}: every server`,
    commandLine: 'k3s etcd-snapshot ls (as root, on each server)',
    async run(ctx) {
      const servers = ctx.cluster.nodes.filter((node) => node.roles.includes('server'));
      const found: ServerSnapshot[] = [];
      const unasked: string[] = [];
      for (const server of servers) {
        const listed = await listServerSnapshots(ctx, server).catch((error: unknown) => {
          if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
          return error.message;
        });
        if (typeof listed === 'string') unasked.push(`${server.name}: ${listed}`);
        else found.push(...listed.map((snapshot) => ({ ...snapshot, server: server.name })));
      }
      if (unasked.length === servers.length) {
        throw new ClusterBotError(
          'COMMAND_FAILED',
          `no server listed its etcd snapshots: ${unasked.join('; ')}`,
          {
            details: { failures: unasked },
          },
        );
      }
      found.sort((a, b) => b.createdAt - a.createdAt || a.name.localeCompare(b.name));
      // One message in the thread, bounded: the list is what the operator asked for.
      const older = found.length > LISTED ? [`… and ${found.length - LISTED} older ones`] : [];
      const lines = [
        ...found.slice(0, LISTED).map(describe),
        ...older,
        ...unasked.map((why) => `not listed: ${why}`),
      ];
      if (lines.length > 0)
        await ctx.note(`etcd snapshots of ${cluster}, newest first:\n${lines.join('\n')}`);
      const newest = found[0];
      return {
        status: 'succeeded',
        summary:
          newest === undefined
            ? `no etcd snapshot on ${servers.length - unasked.length} of ${servers.length} servers`
            : `${found.length} etcd snapshots on ${servers.length - unasked.length} of ${servers.length} servers; newest ${newest.name} on ${newest.server} at ${isoMinute(newest.createdAt)}`,
      };
    },
  };
}

function describe(snapshot: ServerSnapshot): string {
  const job = BOT_SNAPSHOT.exec(snapshot.name);
  const mine = job ? ` (the bot's, before job #${job[1]} took a node away)` : '';
  const size = `${(snapshot.sizeBytes / 1_048_576).toFixed(1)} MiB`;
  return `${snapshot.name} · ${snapshot.server} · ${isoMinute(snapshot.createdAt)} · ${size}${mine}`;
}

export function isoMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
