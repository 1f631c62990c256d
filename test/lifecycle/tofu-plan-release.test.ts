import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeEntry, WorldConfig } from '../../src/config/world-config.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { tofuRebuildStep } from '../../src/lifecycle/rebuild/tofu-rebuild-step.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createMemoryApprovalDesk } from '../support/memory-approval-desk.js';
import { runSteps } from '../support/run-steps.js';
import { createScriptedShell, type ShellCall } from '../support/scripted-shell.js';

const RESOURCE = 'proxmox_vm_qemu.k3s["k3s-dev-3"]';
const PLAN_FILE = '.terraform/cluster-bot-job-1.tfplan';

let world: WorldConfig;
let node: NodeEntry;
beforeAll(async () => {
  world = await loadExampleWorld();
  node = world.clusters.dev!.nodes.find((entry) => entry.name === 'k3s-dev-3')!;
});

/** The ops host as tofu answers there: a plan that replaces the node, and nothing else. */
function opsHost() {
  return createScriptedShell((call: ShellCall) => {
    if (call.argv[0] === 'git') return { stdout: ['0123456789abcdef0123456789abcdef01234567'] };
    if (call.argv.slice(0, 2).join(' ') === 'tofu plan')
      return { stdout: [`  # ${RESOURCE} will be replaced`, 'Plan: 1 to add, 0 to change, 1 to destroy.'] };
    if (call.argv.slice(0, 3).join(' ') === 'tofu show -json')
      return {
        stdout: [
          JSON.stringify({
            resource_changes: [{ address: RESOURCE, change: { actions: ['delete', 'create'] } }],
          }),
        ],
      };
    return undefined;
  });
}

describe('the plan saved for a VM rebuild', () => {
  it.each(['rejected', 'expired'] as const)(
    'is deleted from the ops host once the rebuild is %s',
    async (decision) => {
      const approvals = createMemoryApprovalDesk();
      const checkpoints = createMemoryCheckpointStore();
      const shell = opsHost();
      const job = () =>
        runSteps({
          world,
          command: { verb: 'reprovision', cluster: 'dev', node: 'k3s-dev-3' },
          steps: [tofuRebuildStep(world, '1-rebuild', node, RESOURCE)],
          shell,
          approvals: approvals.desk,
          checkpoints,
        });

      expect((await job()).result).toMatchObject({ status: 'waiting', stepId: '1-rebuild' });
      expect(shell.calls.map((call) => call.argv.join(' '))).toContain(
        `tofu plan -replace=${RESOURCE} -out=${PLAN_FILE} -input=false -no-color`,
      );
      // Rejected by an approver, or expired (as the desk marks it once its time is up).
      if (decision === 'rejected') approvals.reject('1-rebuild');
      else await approvals.desk.expire('approval-1');

      const { result } = await job();
      expect(result).toMatchObject({ status: 'finished', outcome: decision });
      expect(shell.calls.map((call) => call.argv.join(' '))).toContain(`rm -f -- ${PLAN_FILE}`);
      expect(shell.calls.some((call) => call.argv[1] === 'apply')).toBe(false);
    },
  );
});
