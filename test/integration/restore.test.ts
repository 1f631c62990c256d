import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { DEV_ADDRESSES, type DevNode, LAB_TEST_TIMEOUT_MS, UNSERVED_ADDRESS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
  // Each dev server runs with an etcd data dir (empty here): what a restore moves aside on a re-joining server.
  for (const node of DEV) await mkdir(dataDir(node, 'db'), { recursive: true });
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

const SNAPSHOT = 'etcd-snapshot-k3s-dev-2-1764590400';
const RESET_STEP = '4-cluster-reset';
const DEV: readonly DevNode[] = ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'];

/** k3s-dev-2's disk holds the noon snapshot (k3s's scheduled one); the others hold none. */
async function seedSnapshot() {
  await lab.nodes.setNodeState(
    'etcd-snapshot-files',
    `${SNAPSHOT} 3565158 2026-12-01T12:00:00Z\n`,
    DEV_ADDRESSES['k3s-dev-2'],
  );
}

const state = (key: string, node: DevNode) => lab.nodes.readNodeState(key, DEV_ADDRESSES[node]);
/** A node's k3s data dir as the lab maps /var/lib/rancher/k3s there. */
const dataDir = (node: DevNode, ...path: string[]) =>
  join(lab.repo.root, INFRA_REPO_PATHS.labOut, node, 'k3s-data', 'server', ...path);
const there = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
/** Every dev server Ready with the etcd role, as the API shows them. */
const members = async () =>
  (await lab.devKube.listNodes())
    .filter((node) => node.ready && node.etcd)
    .map((node) => node.name)
    .sort();

// One file, in order: the tests restore the same lab cluster; the one that leaves it broken is last.
describe('/cluster restore dev <snapshot> against the lab', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('refuses with every problem at once, stopping nothing: a snapshot on no server, a server that does not answer', async () => {
    const world = lab.worldWith({ devAddresses: { 'k3s-dev-3': UNSERVED_ADDRESS } });
    const job = lab.startJob('restore dev etcd-snapshot-k3s-dev-1-1764633600', { world });
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'failed',
    });
    const refusal = job.texts().find((text) => text.startsWith('1-preconditions failed'));
    expect(refusal).toContain(`k3s-dev-3 (${UNSERVED_ADDRESS}) is unreachable over SSH`);
    expect(refusal).toContain(
      'etcd snapshot etcd-snapshot-k3s-dev-1-1764633600 is on no server (`/cluster snapshots dev` lists them); not asked: k3s-dev-3:',
    );
    expect(job.approvals.requests).toEqual([]);
    for (const node of DEV) expect(await state('stopped-units', node)).toBeUndefined();
  });

  it('restores on the server holding the snapshot after an approval that says what is lost; the others re-join with their old data kept aside', async () => {
    await seedSnapshot();
    const job = lab.startJob(`restore dev ${SNAPSHOT}`);
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });

    const [request] = job.approvals.requests;
    expect(request?.binding.consequence).toMatch(
      new RegExp(
        `^the cluster goes back to ${SNAPSHOT} on k3s-dev-2, taken 2026-12-01 12:00 UTC \\(\\d+h\\d*m? ago\\): everything written to dev since then is lost`,
      ),
    );
    expect(request?.binding.commandLine).toBe(
      `k3s server --cluster-reset --cluster-reset-restore-path=/var/lib/rancher/k3s/server/db/snapshots/${SNAPSHOT}`,
    );
    expect(request?.minimumApprovals).toBe(1);
    // Reset once, on the holder only; every server stopped first and started again.
    expect(await state('cluster-resets', 'k3s-dev-2')).toBe(`${SNAPSHOT}\n`);
    for (const node of ['k3s-dev-1', 'k3s-dev-3'] as const) {
      expect(await state('cluster-resets', node)).toBeUndefined();
      expect(await there(dataDir(node, `db.cluster-bot-${job.jobFolder}`))).toBe(true);
    }
    expect(await there(dataDir('k3s-dev-2', `db.cluster-bot-${job.jobFolder}`))).toBe(false);
    for (const node of DEV) {
      expect(await state('stopped-units', node)).toBe('k3s.service\n');
      expect(await state('started-units', node)).toBe('k3s.service\n');
    }
    expect(await members()).toEqual([...DEV]);
    expect(job.texts()).toContain(
      `4-cluster-reset succeeded: ${SNAPSHOT} restored on k3s-dev-2; etcd membership reset to k3s-dev-2 (its old data in /var/lib/rancher/k3s/server/db/etcd-old-*)`,
    );
    expect(job.texts()).toContain(
      '7-rejoin-k3s-dev-2 skipped: k3s-dev-2 holds the snapshot: it was restored, not re-joined',
    );
    expect(job.texts().some((text) => text.startsWith('9-verify succeeded'))).toBe(true);
  });

  it('plan restore shows every command line in order and runs the read-only checks, changing nothing', async () => {
    const before = await state('stopped-units', 'k3s-dev-1');
    const job = lab.startJob(`plan restore dev ${SNAPSHOT}`);
    expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    const plan = job.texts().find((text) => text.includes(`Plan for \`restore dev ${SNAPSHOT}\``)) ?? '';
    const commands = plan.split('\n').filter((line) => line.startsWith('   '));
    expect(commands).toEqual([
      '   systemctl stop k3s (as root, on each server)',
      `   k3s server --cluster-reset --cluster-reset-restore-path=/var/lib/rancher/k3s/server/db/snapshots/${SNAPSHOT} (as root, on the server holding it)`,
      '   systemctl start k3s (as root, on the server holding it); wait for it Ready with the etcd role',
      ...DEV.map(
        (node) =>
          `   mv /var/lib/rancher/k3s/server/db /var/lib/rancher/k3s/server/db.cluster-bot-<job>-<tag>; systemctl start k3s (as root, on ${node}, unless it holds the snapshot); wait for it Ready with the etcd role`,
      ),
    ]);
    expect(job.texts().some((text) => /passes the checks of its \d+ checked steps/.test(text))).toBe(true);
    expect(job.approvals.requests).toEqual([]);
    expect(await state('stopped-units', 'k3s-dev-1')).toBe(before);
  });

  it('a worker killed mid-restore (old data moved aside, k3s not started yet) is resumed at that server and finishes', async () => {
    const resetsBefore = await state('cluster-resets', 'k3s-dev-2');
    let crashed = false;
    const job = lab.startJob(`restore dev ${SNAPSHOT}`, {
      onEvent(event) {
        if (
          !crashed &&
          event.type === 'step-progress' &&
          event.text.startsWith('k3s-dev-1: old etcd data kept in')
        ) {
          crashed = true;
          job.checkpoints.crash();
        }
      },
    });
    await job.runUntilDone({ approve: true }).catch(() => undefined);
    expect(crashed).toBe(true);
    expect(job.checkpoints.records.get('6-rejoin-k3s-dev-1')?.status).toBe('running');

    job.checkpoints.revive();
    expect(await job.runUntilDone({ approve: true })).toMatchObject({
      status: 'finished',
      outcome: 'succeeded',
    });
    // Resumed at the server it stopped on: the snapshot was restored once, the data moved once.
    expect(await state('cluster-resets', 'k3s-dev-2')).toBe(`${resetsBefore}${SNAPSHOT}\n`);
    expect(await there(dataDir('k3s-dev-1', `db.cluster-bot-${job.jobFolder}`))).toBe(true);
    expect(await there(dataDir('k3s-dev-3', `db.cluster-bot-${job.jobFolder}`))).toBe(true);
    expect(await members()).toEqual([...DEV]);
  });

  it('a worker killed mid cluster reset: the reset outlives it and runs once; the resumed job follows it to its end and finishes', async () => {
    const holder = DEV_ADDRESSES['k3s-dev-2'];
    const resetsBefore = await state('cluster-resets', 'k3s-dev-2');
    const callsBefore = (await state('k3s-calls', 'k3s-dev-2')) ?? '';
    const resetCalls = async () =>
      ((await state('k3s-calls', 'k3s-dev-2')) ?? '')
        .slice(callsBefore.length)
        .split('\n')
        .filter((call) => call.startsWith('server --cluster-reset'));
    await lab.nodes.setNodeState('cluster-reset-hold', '1', holder);
    const job = lab.startJob(`restore dev ${SNAPSHOT}`);
    const running = job.runUntilDone({ approve: true }).catch(() => undefined);
    await waitFor(
      'k3s to have moved the old data aside',
      () => job.reporter.linesOf(RESET_STEP).some((line) => line.includes('Pre-restore etcd database moved')),
      { timeoutMs: 30_000 },
    );
    job.checkpoints.crash();
    await lab.nodes.killSessions();
    await running;
    // k3s goes on with no worker: started once, not done restoring yet.
    expect(job.checkpoints.records.get(RESET_STEP)?.status).toBe('running');
    expect(await resetCalls()).toHaveLength(1);
    expect(await state('cluster-resets', 'k3s-dev-2')).toBe(resetsBefore);

    job.checkpoints.revive();
    const resumed = job.runUntilDone({ approve: true });
    await waitFor('the re-attach', () =>
      job
        .texts()
        .some((text) => text.includes('worker restarted; following the running `k3s server --cluster-reset')),
    );
    await lab.nodes.setNodeState('cluster-reset-hold', null, holder);
    expect(await resumed).toMatchObject({ status: 'finished', outcome: 'succeeded' });

    // One reset, started once; its lines each shown once; the cluster whole again.
    expect(await state('cluster-resets', 'k3s-dev-2')).toBe(`${resetsBefore}${SNAPSHOT}\n`);
    expect(await resetCalls()).toHaveLength(1);
    const shown = job.reporter.linesOf(RESET_STEP);
    for (const said of ['Pre-restore etcd database moved', 'restart without --cluster-reset flag now'])
      expect(shown.filter((line) => line.includes(said))).toHaveLength(1);
    expect(job.texts()).toContain(
      `${RESET_STEP} succeeded: ${SNAPSHOT} restored on k3s-dev-2; etcd membership reset to k3s-dev-2 (its old data in /var/lib/rancher/k3s/server/db/etcd-old-*)`,
    );
    expect(await members()).toEqual([...DEV]);
  });

  it("stops at the first failed step with every server's state and what to do by hand: the snapshot file went away after the approval", async () => {
    const startedBefore = await Promise.all(DEV.map((node) => state('started-units', node)));
    const job = lab.startJob(`restore dev ${SNAPSHOT}`);
    const result = await job.runUntilDone({
      approve: true,
      // Someone deletes the file while the approval waits.
      onWaiting: () => lab.nodes.setNodeState('etcd-snapshot-files', '', DEV_ADDRESSES['k3s-dev-2']),
    });
    expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
    const stopped = job.texts().find((text) => text.includes('The restore stopped at restore the snapshot'));
    for (const node of DEV) {
      expect(stopped).toMatch(
        new RegExp(
          `${node}: k3s stopped · server/db in place · nothing moved aside · membership unknown: the Kubernetes API does not answer`,
        ),
      );
    }
    expect(stopped).toContain(
      `By hand from here: on k3s-dev-2, run \`k3s server --cluster-reset --cluster-reset-restore-path=/var/lib/rancher/k3s/server/db/snapshots/${SNAPSHOT}\` as root`,
    );
    expect(job.reporter.planFailure()?.message).toMatch(
      new RegExp(`stat \\S+/${SNAPSHOT}: no such file or directory`),
    );
    // Nothing was restored and no server started again.
    expect(await Promise.all(DEV.map((node) => state('started-units', node)))).toEqual(startedBefore);
  });
});
