import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import { rootPath, runAsRoot } from '../node/run-as-root.js';
import type { StepContext } from '../plan/step.js';
import { type EtcdSnapshot, parseSnapshotList } from './parse-snapshot-list.js';

/**
 * The etcd snapshots on one server's disk (`k3s etcd-snapshot ls` as root, by the root path the
 * server has); COMMAND_FAILED naming k3s's last line when it cannot list them.
 */
export async function listServerSnapshots(ctx: StepContext, server: NodeEntry): Promise<EtcdSnapshot[]> {
  const result = await runAsRoot(ctx, server, ['k3s', 'etcd-snapshot', 'ls'], await rootPath(ctx, server));
  const listed = result.exitCode === 0 ? parseSnapshotList(result.lines) : undefined;
  if (listed) return listed;
  const why = result.failure ?? result.lines.at(-1) ?? `exit ${result.exitCode}`;
  throw new ClusterBotError('COMMAND_FAILED', `k3s etcd-snapshot ls failed (${why})`, {
    details: { server: server.name, exitCode: result.exitCode },
  });
}
