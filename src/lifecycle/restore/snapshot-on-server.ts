import type { Precondition } from '../preconditions/precondition.js';
import { findSnapshot } from './find-snapshot.js';

/** The snapshot to restore is on exactly one server's disk, as `k3s etcd-snapshot ls` lists it there. */
export function snapshotOnServer(snapshot: string): Precondition {
  return {
    label: 'snapshot on a server',
    async check(ctx) {
      const found = await findSnapshot(ctx, snapshot);
      return typeof found === 'string' ? [found] : [];
    },
  };
}
