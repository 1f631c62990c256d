import { listSnapshotsStep } from '../snapshots/list-snapshots-step.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

/** The etcd snapshots on every server of a cluster, in one list. */
export interface SnapshotsCommand {
  readonly verb: 'snapshots';
  readonly cluster: string;
}

export const snapshots: VerbSpec<SnapshotsCommand> = {
  verb: 'snapshots',
  target: 'cluster',
  mutating: false,
  flags: [],
  help: [
    "`snapshots <cluster>`: the etcd snapshots on every server (name, server, time, size; the bot's own marked with their job); changes nothing",
  ],
  read: targetOnly(({ cluster }) => ({ verb: 'snapshots', cluster })),
  plan: (_command, _world, cluster) => [listSnapshotsStep('1-snapshots', cluster.name)],
};
