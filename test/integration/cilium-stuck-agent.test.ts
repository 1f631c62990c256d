import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playbookProcesses } from './playbook-processes.js';
import { LAB_TEST_TIMEOUT_MS, type LifecycleLab, startLifecycleLab } from './start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  // As the real role does: cilium.yml waits on `rollout status` (here 5 minutes) while an agent never comes up.
  lab = await startLifecycleLab({
    sim: { scenario: { brokenAgentOn: 'k3s-dev-2' } },
    labVars: { lab_rollout_wait_seconds: 300 },
  });
});
afterAll(async () => {
  await lab?.stop();
});

describe('a Cilium agent stuck while cilium.yml still waits on the rollout', () => {
  it(
    'stops the playbook at the first agent not Ready, naming pod, node and container, instead of waiting out the role',
    async () => {
      const job = lab.startJob('cilium dev');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      const failed = job.reporter.failedStep();
      expect(failed?.stepId).toBe('2-cilium');
      expect(failed?.failure?.code).toBe('GATE_FAILED');
      const stuck = lab.sim
        .state()
        .pods.find(
          (pod) => pod.metadata.labels?.['k8s-app'] === 'cilium' && pod.spec.nodeName === 'k3s-dev-2',
        )!;
      expect(failed?.failure?.message).toContain(
        `pod ${stuck.metadata.name} on k3s-dev-2: init container config`,
      );
      expect(failed?.failure?.message).toContain('i/o timeout');
      // agentReady is 5 s in the lab: the step ends long before the role's wait would have.
      expect(failed?.durationMs).toBeLessThan(60_000);
      expect(job.reporter.events).toContainEqual(
        expect.objectContaining({ type: 'gate-failed', gate: 'Cilium rollout', stepId: '2-cilium' }),
      );
      expect(job.texts()).toContain('3-cilium-rollout skipped: not run');
      expect(await playbookProcesses(lab.repo.ansibleDir)).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
