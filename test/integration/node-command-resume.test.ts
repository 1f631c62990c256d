import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bareMetal } from '../support/bare-metal-world.js';
import { DEV_ADDRESSES, LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LabJob, type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const NODE = 'k3s-dev-3';
const ADDRESS = DEV_ADDRESSES[NODE];
const STEP = '8-k3s-uninstall';
const UNINSTALL_LINES = [
  '+ systemctl stop k3s',
  '+ rm -rf /etc/rancher/k3s',
  '+ rm -rf /var/lib/rancher/k3s',
  '+ rm -f /usr/local/bin/k3s',
];

const isReady = (name: string) =>
  lab.sim
    .state()
    .nodes.find((candidate) => candidate.metadata.name === name)
    ?.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') === true;

afterEach(async () => {
  for (const key of ['k3s-uninstall-hold', 'k3s-uninstall-exit', 'k3s-uninstall', 'k3s-uninstall-starts'])
    await lab.nodes.setNodeState(key, null, ADDRESS);
  if (!isReady(NODE)) lab.sim.joinNode(NODE);
  await waitFor(`${NODE} Ready again`, async () => (isReady(NODE) ? true : undefined));
  await lab.devKube.setUnschedulable(NODE, false);
});

/** What the node's /var/lib/cluster-bot/<job>-<tag>/<step> is on this machine (the lab maps it). */
const nodeFolder = (job: LabJob) => join(lab.nodes.nodeDetachedRoot(ADDRESS), job.jobFolder, STEP);

/**
 * A bare-metal reprovision of k3s-dev-3 up to its k3s-uninstall.sh, which the node holds after its
 * first removal (and which then exits 3, as a removal that failed makes it): the worker is SIGKILLed
 * there. Its writes, its following and its SSH connections to the node are gone; the uninstall is not.
 */
async function killWorkerMidUninstall() {
  const commandsBefore = (await lab.nodes.commands()).length;
  const job = lab.startJob(`reprovision ${NODE}`, { world: bareMetal(lab.world, NODE) });
  let result = await job.run();
  while (result.status === 'waiting' && result.stepId !== STEP) {
    // The operator reinstalls the OS: the node comes back with a new host key, which is accepted next.
    if (result.stepId === '5-reinstalled') await lab.nodes.rotateHostKey(ADDRESS);
    job.approvals.approve(result.stepId);
    result = await job.run();
  }
  expect(result).toMatchObject({ status: 'waiting', stepId: STEP });
  await lab.nodes.setNodeState('k3s-uninstall-hold', '1', ADDRESS);
  await lab.nodes.setNodeState('k3s-uninstall-exit', '3', ADDRESS);
  job.approvals.approve(STEP);
  const running = job.run();
  await waitFor(
    'k3s-uninstall.sh to be past its first removal',
    () => job.reporter.linesOf(STEP).includes('+ rm -rf /etc/rancher/k3s'),
    { timeoutMs: 30_000 },
  );
  job.checkpoints.crash();
  await lab.nodes.killSessions();
  await running;
  const shownBefore = job.reporter.linesOf(STEP).length;
  // The uninstall outlived the worker: running, in its root-only folder on the node.
  expect(await readFile(join(nodeFolder(job), 'pid'), 'utf8')).toMatch(/^\d+\n$/);
  expect(await lab.nodes.readNodeState('k3s-uninstall', ADDRESS)).toBeUndefined();
  expect(job.checkpoints.records.get(STEP)).toMatchObject({ status: 'running' });
  return { job, shownBefore, commandsBefore };
}

/** One start and one end on the node; the resumed job fails with the script's own exit code; each line once. */
async function expectOneRunReportedWhole(job: LabJob, commandsBefore: number) {
  const commands = (await lab.nodes.commands()).slice(commandsBefore);
  expect(commands.filter((command) => command === 'k3s-uninstall.sh')).toHaveLength(1);
  expect(await lab.nodes.readNodeState('k3s-uninstall-starts', ADDRESS)).toBe('started\n');
  expect(await lab.nodes.readNodeState('k3s-uninstall', ADDRESS)).toBe('ran\n');
  expect(job.reporter.failedStep()?.stepId).toBe(STEP);
  expect(job.reporter.planFailure()).toMatchObject({
    code: 'COMMAND_FAILED',
    message: `k3s-uninstall.sh on ${NODE} exited 3`,
    details: { node: NODE, exitCode: 3 },
  });
  expect(job.reporter.linesOf(STEP)).toEqual(UNINSTALL_LINES);
  expect(job.texts()).not.toContainEqual(expect.stringContaining('running it again'));
  expect(job.approvals.voided).toEqual([]);
}

describe('a worker dies while k3s-uninstall.sh runs on the node (reprovision k3s-dev-3, bare metal)', () => {
  it(
    'the resumed job follows the uninstall still running on the node: it runs once, its real exit code, each line once',
    async () => {
      const { job, shownBefore, commandsBefore } = await killWorkerMidUninstall();
      expect(shownBefore).toBe(2);

      job.checkpoints.revive();
      const resumed = job.run();
      const note = await waitFor('the re-attach', () =>
        job
          .texts()
          .find((text) => text.includes('worker restarted; following the running `k3s-uninstall.sh`')),
      );
      await lab.nodes.setNodeState('k3s-uninstall-hold', null, ADDRESS);
      expect(await resumed).toMatchObject({ status: 'finished', outcome: 'failed' });

      expect(note).toMatch(/from line 3$/);
      await expectOneRunReportedWhole(job, commandsBefore);
      // Its folder on the node is root's alone, and says how it ended.
      const folder = nodeFolder(job);
      expect(await readFile(join(folder, 'rc'), 'utf8')).toBe('3\n');
      for (const [path, mode] of [
        [lab.nodes.nodeDetachedRoot(ADDRESS), 0o700],
        [folder, 0o700],
        [join(folder, 'out'), 0o600],
      ] as const) {
        const entry = await stat(path);
        expect({ path, mode: entry.mode & 0o777, uid: entry.uid }).toEqual({ path, mode, uid: 0 });
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'the uninstall ended while no worker followed it: the resumed job reads its output and exit code, never starts it again',
    async () => {
      const { job, commandsBefore } = await killWorkerMidUninstall();
      await lab.nodes.setNodeState('k3s-uninstall-hold', null, ADDRESS);
      await waitFor('the uninstall to end on its own', () =>
        readFile(join(nodeFolder(job), 'rc'), 'utf8').then(
          (rc) => rc === '3\n' || undefined,
          () => undefined,
        ),
      );

      job.checkpoints.revive();
      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'failed' });

      expect(job.texts()).toContainEqual(
        expect.stringContaining(
          'worker restarted; `k3s-uninstall.sh` ended while no worker followed it; its output from line 3',
        ),
      );
      await expectOneRunReportedWhole(job, commandsBefore);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
