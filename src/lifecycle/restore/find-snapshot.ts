import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { listServerSnapshots } from '../snapshots/list-server-snapshots.js';
import { serversOf } from './restore-facts.js';

/** The snapshot a restore starts from: the one server whose disk holds it, and its file there. */
export interface SnapshotToRestore {
  readonly name: string;
  readonly server: string;
  /** The file on that server, as `k3s etcd-snapshot ls` names it (without `file://`). */
  readonly path: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly sizeBytes: number;
}

const ON_DISK = 'file://';

/**
 * Asks every server for its snapshots (`k3s etcd-snapshot ls`, as root) and finds `name` on exactly
 * one of them, on its disk: the server a restore runs `--cluster-reset` on. Otherwise why not, naming
 * every server that could not be asked.
 */
export async function findSnapshot(ctx: StepContext, name: string): Promise<SnapshotToRestore | string> {
  const holders: SnapshotToRestore[] = [];
  const elsewhere: string[] = [];
  const unasked: string[] = [];
  for (const server of serversOf(ctx)) {
    try {
      for (const snapshot of await listServerSnapshots(ctx, server)) {
        if (snapshot.name !== name) continue;
        if (!snapshot.location.startsWith(ON_DISK)) elsewhere.push(`${server.name} (${snapshot.location})`);
        else
          holders.push({
            name,
            server: server.name,
            path: snapshot.location.slice(ON_DISK.length),
            createdAt: snapshot.createdAt,
            sizeBytes: snapshot.sizeBytes,
          });
      }
    } catch (error) {
      if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
      unasked.push(`${server.name}: ${error.message}`);
    }
  }
  const [holder, ...others] = holders;
  if (holder && others.length === 0) return holder;
  if (holder) {
    return `etcd snapshot ${name} is listed on ${holders.map((h) => h.server).join(' and ')}: restore from one server's copy by hand`;
  }
  if (elsewhere.length > 0)
    return `etcd snapshot ${name} is not on a server's disk (${elsewhere.join(', ')}): the bot restores only a snapshot a server holds`;
  const why = unasked.length > 0 ? `; not asked: ${unasked.join('; ')}` : '';
  return `etcd snapshot ${name} is on no server (\`/cluster snapshots ${ctx.cluster.name}\` lists them)${why}`;
}
