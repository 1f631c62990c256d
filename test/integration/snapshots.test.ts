import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESSES, LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

/** What k3s keeps on a server's disk: one "name size created" line per snapshot. */
const files = (...rows: string[]) => `${rows.join('\n')}\n`;

describe('/cluster snapshots dev against the lab', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it("lists every server's etcd snapshots in one list, newest first, the bot's own marked with their job", async () => {
    await lab.nodes.setNodeState(
      'etcd-snapshot-files',
      files(
        'etcd-snapshot-k3s-dev-1-1764633600 3616800 2026-12-02T00:00:00Z',
        'cluster-bot-job-12-k3s-dev-1-1764640000 3670016 2026-12-02T01:46:40Z',
      ),
      DEV_ADDRESSES['k3s-dev-1'],
    );
    await lab.nodes.setNodeState(
      'etcd-snapshot-files',
      files('etcd-snapshot-k3s-dev-2-1764590400 3565158 2026-12-01T12:00:00Z'),
      DEV_ADDRESSES['k3s-dev-2'],
    );
    // k3s-dev-3 has none yet.
    await lab.nodes.setNodeState('etcd-snapshot-files', '', DEV_ADDRESSES['k3s-dev-3']);
    const job = lab.startJob('snapshots dev');
    expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(job.texts()).toContain(
      '1-snapshots etcd snapshots of dev, newest first:\n' +
        "cluster-bot-job-12-k3s-dev-1-1764640000 · k3s-dev-1 · 2026-12-02 01:46 UTC · 3.5 MiB (the bot's, before job #12 took a node away)\n" +
        'etcd-snapshot-k3s-dev-1-1764633600 · k3s-dev-1 · 2026-12-02 00:00 UTC · 3.4 MiB\n' +
        'etcd-snapshot-k3s-dev-2-1764590400 · k3s-dev-2 · 2026-12-01 12:00 UTC · 3.4 MiB',
    );
    expect(job.texts()).toContain(
      '1-snapshots succeeded: 3 etcd snapshots on 3 of 3 servers; newest cluster-bot-job-12-k3s-dev-1-1764640000 on k3s-dev-1 at 2026-12-02 01:46 UTC',
    );
  });

  it('names a server that cannot list its snapshots and lists the others', async () => {
    await lab.nodes.setNodeState(
      'etcd-snapshot-fail',
      'etcd datastore is not started',
      DEV_ADDRESSES['k3s-dev-2'],
    );
    try {
      const job = lab.startJob('snapshots dev');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      const listed = job.texts().find((text) => text.startsWith('1-snapshots etcd snapshots of dev'));
      expect(listed).toContain('etcd-snapshot-k3s-dev-1-1764633600 · k3s-dev-1');
      expect(listed).toMatch(
        /not listed: k3s-dev-2: k3s etcd-snapshot ls failed \(time=".*" level=fatal msg="etcd datastore is not started"\)/,
      );
      expect(job.texts()).toContain(
        '1-snapshots succeeded: 2 etcd snapshots on 2 of 3 servers; newest cluster-bot-job-12-k3s-dev-1-1764640000 on k3s-dev-1 at 2026-12-02 01:46 UTC',
      );
    } finally {
      await lab.nodes.setNodeState('etcd-snapshot-fail', null, DEV_ADDRESSES['k3s-dev-2']);
    }
  });

  it("verify dev fails and alerts on the backup gate when every server's newest snapshot is older than 24h", async () => {
    const old = {
      'k3s-dev-1': 'etcd-snapshot-k3s-dev-1-1764504000 3616800 2026-11-30T12:00:00Z',
      'k3s-dev-2': 'etcd-snapshot-k3s-dev-2-1764460800 3616800 2026-11-30T00:00:00Z',
      'k3s-dev-3': '',
    } as const;
    for (const [node, rows] of Object.entries(old))
      await lab.nodes.setNodeState(
        'etcd-snapshot-files',
        rows && files(rows),
        DEV_ADDRESSES[node as keyof typeof old],
      );
    try {
      const job = lab.startJob('verify dev');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'failed' });
      const alerts = job.reporter.events.filter((event) => event.type === 'gate-failed');
      expect(alerts).toEqual([
        expect.objectContaining({
          gate: 'etcd snapshot fresh',
          observed: expect.stringMatching(
            /^newest etcd snapshot etcd-snapshot-k3s-dev-1-1764504000 on k3s-dev-1 is \d+h(\d+m)? old, older than snapshotMaxAge 24h$/,
          ),
        }),
      ]);
    } finally {
      for (const node of Object.keys(old))
        await lab.nodes.setNodeState('etcd-snapshot-files', null, DEV_ADDRESSES[node as keyof typeof old]);
    }
  });
});
