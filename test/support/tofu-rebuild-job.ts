import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { tofuRebuildStep } from '../../src/lifecycle/rebuild/tofu-rebuild-step.js';
import { loadExampleWorld } from './example-world.js';
import { createMemoryApprovalDesk } from './memory-approval-desk.js';
import { JOB_FOLDER_TAG, runSteps, type StepsRun } from './run-steps.js';
import { createTofuOpsHost } from './tofu-ops-host.js';

export const REBUILT_RESOURCE = 'proxmox_vm_qemu.k3s["k3s-dev-3"]';
/** Where job-1 saves its plan, named by its id and folder tag. */
export const OWN_PLAN = `.terraform/cluster-bot-job-1-${JOB_FOLDER_TAG}.tfplan`;
/** Where job-1 saves its plan by its id alone: another deployment's job-1, or one from before folder tags. */
export const BARE_ID_PLAN = '.terraform/cluster-bot-job-1.tfplan';

/**
 * job-1's VM rebuild of dev's k3s-dev-3 (its tofu step alone) against a fake ops host: `run` it,
 * decide on its approval, run it again. Its record's folder tag is JOB_FOLDER_TAG unless `record` says
 * otherwise (`folderTag: undefined`: a job recorded before folder tags).
 */
export async function startTofuRebuildJob(record: Pick<StepsRun, 'folderTag'> = {}) {
  const world = await loadExampleWorld();
  const node = world.clusters.dev!.nodes.find((entry) => entry.name === 'k3s-dev-3')!;
  const host = createTofuOpsHost();
  const approvals = createMemoryApprovalDesk();
  const checkpoints = createMemoryCheckpointStore();
  const run = async () =>
    (
      await runSteps({
        world,
        command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-3' },
        steps: [tofuRebuildStep(world, '1-rebuild', node, REBUILT_RESOURCE)],
        shell: host.shell,
        approvals: approvals.desk,
        checkpoints,
        ...record,
      })
    ).result;
  return { host, approvals, checkpoints, run };
}
