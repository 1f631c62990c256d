import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeEntry, WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { tofuRebuildStep } from '../../src/lifecycle/rebuild/tofu-rebuild-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { JOB_FOLDER_TAG, runSteps } from '../support/run-steps.js';
import { createTofuOpsHost } from '../support/tofu-ops-host.js';

const RESOURCE = 'proxmox_vm_qemu.k3s["k3s-dev-3"]';
const OWN_PLAN = `.terraform/cluster-bot-job-1-${JOB_FOLDER_TAG}.tfplan`;
/** Where job-1 saves its plan by its id alone: another deployment's job-1, or one from before folder tags. */
const BARE_ID_PLAN = '.terraform/cluster-bot-job-1.tfplan';

let world: WorldConfig;
let node: NodeEntry;
beforeAll(async () => {
  world = await loadExampleWorld();
  node = world.clusters.dev!.nodes.find((entry) => entry.name === 'k3s-dev-3')!;
});

/** job-1's rebuild of k3s-dev-3, asked and approved; `interrupted`: its worker then died before `tofu apply` started. */
async function approvedRebuild(folderTag: string | undefined, interrupted: boolean) {
  const host = createTofuOpsHost();
  const approvals = createMemoryApprovalDesk();
  const checkpoints = createMemoryCheckpointStore();
  const run = async () =>
    (
      await runSteps({
        world,
        command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-3' },
        steps: [tofuRebuildStep(world, '1-rebuild', node, RESOURCE)],
        shell: host.shell,
        approvals: approvals.desk,
        checkpoints,
        folderTag,
      })
    ).result;
  expect(await run()).toMatchObject({ status: 'waiting', stepId: '1-rebuild' });
  approvals.approve('1-rebuild');
  if (interrupted) {
    const approved = await approvals.desk.state('1-rebuild');
    await checkpoints.set('1-rebuild', {
      status: 'running',
      startedAt: 1,
      data: { approvalId: (approved as { id: string }).id },
    });
  }
  return { host, run };
}

describe('the plan a VM rebuild saves is its job’s own', () => {
  it.each([
    ['approved while it waited', false],
    ['resumed after its worker died before the apply started', true],
  ])(
    'a rebuild %s applies the plan it showed, never the one another run of its job id saved meanwhile',
    async (_, interrupted) => {
      const { host, run } = await approvedRebuild(JOB_FOLDER_TAG, interrupted);
      // The same resource replaced: the approval's recheck alone cannot tell the two plans apart.
      host.plans.set(BARE_ID_PLAN, { resource: RESOURCE, by: 'another deployment' });

      expect(await run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(host.applied).toEqual([{ file: OWN_PLAN, by: 'this job' }]);
      expect([...host.plans]).toEqual([[BARE_ID_PLAN, { resource: RESOURCE, by: 'another deployment' }]]);
    },
  );

  it('a job recorded before folder tags, resumed by this version, applies the plan it saved under its bare id', async () => {
    const { host, run } = await approvedRebuild(undefined, true);
    expect(await run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
    expect(host.applied).toEqual([{ file: BARE_ID_PLAN, by: 'this job' }]);
    expect(host.plans.size).toBe(0);
  });
});
