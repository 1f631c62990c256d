import { printable } from '../command/printable.js';
import { restorePlan } from '../restore/restore-plan.js';
import type { ClusterTarget, VerbReading, VerbSpec } from './verb-spec.js';

/** The cluster back to one of its etcd snapshots, by the name `/cluster snapshots` lists it under. */
export interface RestoreCommand {
  readonly verb: 'restore';
  readonly cluster: string;
  readonly snapshot: string;
}

// A snapshot name as k3s makes them (`etcd-snapshot-<node>-<time>`, `<name>-<node>-<time>`): no path, no shell.
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export const restore: VerbSpec<RestoreCommand> = {
  verb: 'restore',
  target: 'cluster',
  mutating: true,
  flags: [],
  help: [
    '`restore <cluster> <snapshot>`: ⚠ etcd back to a snapshot (two approvers on production): k3s stopped on every server, restored on the one holding it, the others re-join one at a time, verify; everything written since the snapshot is lost',
  ],
  read: readSnapshot,
  plan: ({ snapshot }, _world, cluster) => restorePlan(cluster, snapshot),
};

function readSnapshot(
  _flags: readonly string[],
  words: readonly string[],
): VerbReading<ClusterTarget, RestoreCommand> | string {
  if (words.length !== 2)
    return 'restore takes a cluster and one snapshot name, as `/cluster snapshots <cluster>` lists it';
  const snapshot = words[1]!;
  if (!SNAPSHOT_NAME.test(snapshot))
    return `"${printable(snapshot)}" is not an etcd snapshot name (letters, digits, . _ - only)`;
  return { words: words.slice(0, 1), command: ({ cluster }) => ({ verb: 'restore', cluster, snapshot }) };
}
