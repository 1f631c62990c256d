import { describe, expect, it } from 'vitest';
import { parseSnapshotList } from '../../src/lifecycle/snapshots/parse-snapshot-list.js';

describe('the table k3s etcd-snapshot ls prints', () => {
  it('reads each row (tabwriter-padded) and skips k3s log lines', () => {
    const lines = [
      'time="2026-12-02T06:00:00Z" level=info msg="Managed etcd cluster bootstrap already complete and initialized"',
      'Name                               Location                                                                           Size    Created',
      'etcd-snapshot-k3s-dev-1-1764633600 file:///var/lib/rancher/k3s/server/db/snapshots/etcd-snapshot-k3s-dev-1-1764633600 3616800 2026-12-02T00:00:00Z',
    ];
    expect(parseSnapshotList(lines)).toEqual([
      {
        name: 'etcd-snapshot-k3s-dev-1-1764633600',
        location: 'file:///var/lib/rancher/k3s/server/db/snapshots/etcd-snapshot-k3s-dev-1-1764633600',
        sizeBytes: 3616800,
        createdAt: Date.UTC(2026, 11, 2, 0, 0),
      },
    ]);
  });

  it('an empty table is no snapshot; output without the header is not a list', () => {
    expect(parseSnapshotList(['Name Location Size Created'])).toEqual([]);
    expect(parseSnapshotList(['time="…" level=fatal msg="etcd datastore is not started"'])).toBeUndefined();
  });
});
