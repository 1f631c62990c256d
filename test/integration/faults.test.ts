import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labDuration } from '../support/lab-config.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab({
    sim: {
      scenario: { brokenAgentOn: 'k3s-dev-2', pdbBlocks: true },
      // cilium.yml here does not wait on the rollout (lab_rollout_wait_seconds 0): the first new agent
      // takes 2.5 s to be Ready, so k3s-dev-2's broken one appears after the playbook has ended and
      // the rollout step, not the watcher beside the playbook, is the one that stops at it. The watcher
      // path is cilium-stuck-agent.test.ts. Within agentReady (5 s), so k3s-dev-1 is not called stuck.
      agentReadyDelayMs: 2_500,
      podReadyDelayMs: 300,
    },
  });
});
afterAll(async () => {
  await lab?.stop();
});

// One file, in order: the drain test needs every node Ready, which the broken rollout ends.
describe('faults in the cluster: a PodDisruptionBudget that blocks, a bad render on one node', () => {
  it(
    'reprovision: a drain blocked by a PodDisruptionBudget times out naming the pod, and the node stays cordoned',
    async () => {
      const web = lab.sim
        .state()
        .pods.find((pod) => pod.spec.nodeName === 'k3s-dev-3' && pod.metadata.labels?.app === 'web');
      expect(web).toBeDefined();
      const job = lab.startJob('reprovision k3s-dev-3', {
        world: lab.worldWith({ timeouts: { drain: '3s' } }),
      });
      try {
        const result = await job.runUntilDone({ approve: true });

        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        const failure = job.reporter.planFailure();
        expect(failure).toMatchObject({
          code: 'GATE_TIMEOUT',
          message:
            `drain of k3s-dev-3 timed out after ${labDuration('3s')}: still on the node: default/${web!.metadata.name}; ` +
            `eviction blocked by a PodDisruptionBudget: default/${web!.metadata.name}. k3s-dev-3 stays cordoned.`,
        });
        expect(job.texts()).toContain('3-etcd-snapshot skipped: not run');
        expect(job.texts()).toContain('4-remove-node skipped: not run');
        const node = lab.sim.state().nodes.find((candidate) => candidate.metadata.name === 'k3s-dev-3');
        expect(node?.spec.unschedulable).toBe(true);
        expect(lab.sim.state().pods.some((pod) => pod.metadata.name === web!.metadata.name)).toBe(true);
      } finally {
        await lab.devKube.setUnschedulable('k3s-dev-3', false);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'stops the rollout at the first agent not Ready, naming pod, node, container and reason, with one agent down',
    async () => {
      const job = lab.startJob('cilium dev');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      const ciliumPods = lab.sim.state().pods.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'cilium');
      const stuck = ciliumPods.find((pod) => pod.spec.nodeName === 'k3s-dev-2')!;
      const finished = job.reporter.failedStep();
      expect(finished?.stepId).toBe('3-cilium-rollout');
      expect(finished?.failure?.code).toBe('GATE_FAILED');
      const message = finished?.failure?.message ?? '';
      expect(message).toContain(`pod ${stuck.metadata.name} on k3s-dev-2: init container config`);
      expect(message).toContain('dial tcp 10.43.0.1:443: i/o timeout');
      expect(finished?.failure?.details).toMatchObject({ pod: stuck.metadata.name, node: 'k3s-dev-2' });

      const gateFailures = job.reporter.events.filter((event) => event.type === 'gate-failed');
      expect(gateFailures).toEqual([
        expect.objectContaining({ gate: 'Cilium rollout', cluster: 'dev', stepId: '3-cilium-rollout' }),
      ]);
      expect(job.texts().at(-1)).toMatch(
        /^job failed: watch Cilium rollout failed: rollout stopped at a broken agent: pod cilium-\w+ on k3s-dev-2/,
      );
      expect(job.texts()).toContain('4-verify skipped: not run');
      // The rollout goes node by node: k3s-dev-1's new agent came up, k3s-dev-2's never did, k3s-dev-3 was not touched.
      expect(job.texts().filter((text) => text.startsWith('3-cilium-rollout agent '))).toEqual([
        expect.stringMatching(/^3-cilium-rollout agent cilium-\w+ on k3s-dev-1 Ready \(1\/3\)$/),
      ]);

      // maxUnavailable 1: the agent on k3s-dev-2 is the only one down; the others run Ready.
      const notReady = ciliumPods.filter(
        (pod) => !pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      expect(notReady.map((pod) => pod.spec.nodeName)).toEqual(['k3s-dev-2']);
      expect(ciliumPods).toHaveLength(3);
      const hashOn = (node: string) =>
        ciliumPods.find((pod) => pod.spec.nodeName === node)?.metadata.labels?.['controller-revision-hash'];
      expect(hashOn('k3s-dev-2')).toBe(hashOn('k3s-dev-1'));
      expect(hashOn('k3s-dev-3')).not.toBe(hashOn('k3s-dev-1'));
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
