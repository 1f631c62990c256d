import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeEntry, WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { tofuRebuildStep } from '../../src/lifecycle/rebuild/tofu-rebuild-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { JOB_FOLDER_TAG, runSteps } from '../support/run-steps.js';
import { createTofuOpsHost } from '../support/tofu-ops-host.js';

const RESOURCE = 'proxmox_vm_qemu.k3s["k3s-dev-3"]';
const PLAN_FILE = `.terraform/cluster-bot-job-1-${JOB_FOLDER_TAG}.tfplan`;
/** Another deployment's job-1 (or one from before folder tags) saved its plan by the job id alone. */
const FOREIGN_PLAN = '.terraform/cluster-bot-job-1.tfplan';

let world: WorldConfig;
let node: NodeEntry;
beforeAll(async () => {
  world = await loadExampleWorld();
  node = world.clusters.dev!.nodes.find((entry) => entry.name === 'k3s-dev-3')!;
});

describe('the plan saved for a VM rebuild', () => {
  it.each(['rejected', 'expired'] as const)(
    'is deleted from the ops host once the rebuild is %s, and only it',
    async (decision) => {
      const approvals = createMemoryApprovalDesk();
      const checkpoints = createMemoryCheckpointStore();
      const host = createTofuOpsHost();
      host.plans.set(FOREIGN_PLAN, { resource: RESOURCE, by: 'another deployment' });
      const job = () =>
        runSteps({
          world,
          command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-3' },
          steps: [tofuRebuildStep(world, '1-rebuild', node, RESOURCE)],
          shell: host.shell,
          approvals: approvals.desk,
          checkpoints,
        });

      expect((await job()).result).toMatchObject({ status: 'waiting', stepId: '1-rebuild' });
      expect(host.plans.get(PLAN_FILE)).toEqual({ resource: RESOURCE, by: 'this job' });
      // Rejected by an approver, or expired (as the desk marks it once its time is up).
      if (decision === 'rejected') approvals.reject('1-rebuild');
      else await approvals.desk.expire('approval-1');

      const { result } = await job();
      expect(result).toMatchObject({ status: 'finished', outcome: decision });
      expect([...host.plans]).toEqual([[FOREIGN_PLAN, { resource: RESOURCE, by: 'another deployment' }]]);
      expect(host.applied).toEqual([]);
    },
  );
});
