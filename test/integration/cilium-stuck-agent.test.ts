import { afterEach, describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/config/parse-duration.js';
import type { KubeSimScenario } from '../lab/kube-sim/start-kube-sim.js';
import { labDuration } from '../support/lab-config.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { playbookProcesses } from './playbook-processes.js';

/** Long enough that a run which waited it out would outlast the test's own timeout. */
const LONG_AGENT_READY = '10m';

let lab: LifecycleLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

/**
 * `cilium dev` against an agent that fails on k3s-dev-2 in the given way, while cilium.yml waits on
 * `rollout status` (here 5 minutes) as the real role does.
 */
async function rollOutWithBrokenAgent(scenario: KubeSimScenario, agentReady?: string) {
  lab = await startLifecycleLab({ sim: { scenario }, labVars: { lab_rollout_wait_seconds: 300 } });
  const world = agentReady ? lab.worldWith({ timeouts: { agentReady } }) : lab.world;
  const job = lab.startJob('cilium dev', { world });
  const result = await job.runUntilDone({ approve: true });
  const failed = job.reporter.failedStep();
  const agent = lab.sim
    .state()
    .pods.find((pod) => pod.metadata.labels?.['k8s-app'] === 'cilium' && pod.spec.nodeName === 'k3s-dev-2')!;
  return { result, failed, job, agent: agent.metadata.name, ansibleDir: lab.repo.ansibleDir };
}

describe('a broken Cilium agent while cilium.yml still waits on the rollout', () => {
  it(
    'a crash-looping init container stops the playbook at once, naming pod, node, container and reason, without waiting out agentReady',
    async () => {
      const { result, failed, job, agent, ansibleDir } = await rollOutWithBrokenAgent(
        { brokenAgentOn: 'k3s-dev-2' },
        LONG_AGENT_READY,
      );

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(failed?.stepId).toBe('2-cilium');
      expect(failed?.failure?.code).toBe('GATE_FAILED');
      expect(failed?.failure?.message).toContain(
        `pod ${agent} on k3s-dev-2: init container config CrashLoopBackOff`,
      );
      expect(failed?.failure?.message).toContain('i/o timeout');
      expect(failed?.failure?.message).toContain(
        `without waiting out agentReady (${labDuration(LONG_AGENT_READY)})`,
      );
      // The lab's facts: agentReady is 10 minutes (stretched by the lab's time scale), and the step ended before it had elapsed.
      expect(failed?.durationMs).toBeLessThan(parseDuration(LONG_AGENT_READY)!);
      expect(job.reporter.events).toContainEqual(
        expect.objectContaining({ type: 'gate-failed', gate: 'Cilium rollout', stepId: '2-cilium' }),
      );
      expect(job.texts()).toContain('3-cilium-rollout skipped: not run');
      expect(await playbookProcesses(ansibleDir)).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'an image that cannot be pulled stops the playbook at once, naming the pull error',
    async () => {
      const { result, failed, agent, ansibleDir } = await rollOutWithBrokenAgent(
        { brokenAgentOn: 'k3s-dev-2', brokenAgentFailure: 'image-pull' },
        LONG_AGENT_READY,
      );

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(failed?.stepId).toBe('2-cilium');
      expect(failed?.failure?.message).toMatch(
        new RegExp(`pod ${agent} on k3s-dev-2: init container config (ErrImagePull|ImagePullBackOff)`),
      );
      expect(failed?.durationMs).toBeLessThan(parseDuration(LONG_AGENT_READY)!);
      expect(await playbookProcesses(ansibleDir)).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'an agent that runs but never turns Ready is given agentReady, then named',
    async () => {
      const { result, failed, agent, ansibleDir } = await rollOutWithBrokenAgent({
        brokenAgentOn: 'k3s-dev-2',
        brokenAgentFailure: 'never-ready',
      });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(failed?.stepId).toBe('2-cilium');
      // agentReady is 5 s in the lab: nothing said the agent was broken for good, so it was waited out.
      expect(failed?.failure?.message).toMatch(
        new RegExp(
          `pod ${agent} on k3s-dev-2: container cilium-agent Running, not Ready; not Ready after \\d+s`,
        ),
      );
      expect(failed?.durationMs).toBeGreaterThanOrEqual(5_000);
      expect(await playbookProcesses(ansibleDir)).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
