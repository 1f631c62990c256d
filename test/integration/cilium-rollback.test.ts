import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';

/**
 * One world, told in order: Flux has adopted Cilium; `cilium dev` ships a template whose agent
 * crash-loops on k3s-dev-2 and halts; Flux stays suspended and the thread says so; a rollback to a
 * revision that does not exist is refused; `--rollback` goes back to the last good revision, watched
 * agent by agent, verified, and Flux left suspended (git still holds the failed values).
 */
let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab({
    sim: { scenario: { brokenAgentOn: 'k3s-dev-2', helmRelease: {} } },
    labVars: { lab_rollout_wait_seconds: 300 },
  });
}, LAB_TEST_TIMEOUT_MS);
afterAll(() => lab?.stop());

const opsCalls = async (tool: 'helm' | 'flux') =>
  ((await lab.ops.readNodeState(`${tool}-calls`)) ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^KUBECONFIG=\S+ /, ''));

describe('Cilium: Flux kept out, a halted rollout rolled back', () => {
  it(
    'a halted cilium job suspends Flux before cilium.yml and leaves it suspended, saying so in the thread',
    async () => {
      const job = lab.startJob('cilium dev');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.failedStep()?.stepId).toBe('2-cilium');
      expect(await opsCalls('flux')).toEqual(['suspend helmrelease cilium -n kube-system']);
      expect(lab.sim.helmRelease()?.spec.suspend).toBe(true);
      expect(job.texts()).toContainEqual(
        expect.stringContaining(
          "Flux's HelmRelease kube-system/cilium stays suspended: cilium.yml failed, and Flux would re-apply what failed. " +
            'Resume it once Cilium is sound: `/cluster cilium dev --resume-flux`',
        ),
      );
      expect(job.texts()).toContain('5-resume-flux skipped: not run');
      // The suspension came after the approval: the approval request was announced first.
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual(['2-cilium']);
      expect(lab.sim.helmHistory().at(-1)).toMatchObject({ revision: 3, status: 'deployed' });
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a revision that is not in the history, naming it and those that are, and runs nothing',
    async () => {
      const job = lab.startJob('cilium dev --rollback 9');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.failedStep()?.failure?.message).toBe(
        'cannot roll back Cilium: revision 9 is not in the history of the release (revisions: 1, 2, 3)',
      );
      expect(job.approvals.requests).toEqual([]);
      expect((await opsCalls('helm')).filter((call) => call.startsWith('rollback'))).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    '--rollback goes back to the last good revision, approved with both revisions shown, watched agent by agent, verified, Flux left suspended; its worker killed mid rollback, the next one reads how it ended',
    async () => {
      // The halted job (#1 here) left Flux suspended: the rollback takes that suspension over.
      const job = lab.startJob('cilium dev --rollback', { fluxSuspendedByJob: 1 });
      await lab.ops.setNodeState('helm-rollback-hold', '1');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-helm-rollback' });
      job.approvals.approve('2-helm-rollback');
      const running = job.run();
      await waitFor(
        'helm rollback to be running',
        async () => (await opsCalls('helm')).some((call) => call.startsWith('rollback')),
        { timeoutMs: 30_000 },
      );
      // The worker is SIGKILLed: its writes, its following and its connection are gone; the rollback is not.
      job.checkpoints.crash();
      await lab.ops.killSessions();
      await running;
      // It ends while nobody follows it: the history moves on to revision 4.
      await lab.ops.setNodeState('helm-rollback-hold', null);
      await waitFor('the rollback to land', () => lab.sim.helmHistory().at(-1)?.revision === 4, {
        timeoutMs: 30_000,
      });
      job.checkpoints.revive();
      const resumed = job.run();
      let result = await resumed;
      if (result.status === 'waiting') result = await job.runUntilDone({ approve: true });
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          /worker restarted; `helm rollback cilium` ended while no worker followed it; its output from line \d+$/,
        ),
      );
      // The revision picked before it started, though the history has moved since.
      expect(job.texts()).toContain(
        '2-helm-rollback succeeded: rolled back from revision 3 (cilium-1.20.1, deployed) to revision 2 (cilium-1.20.1, superseded)',
      );
      expect(job.approvals.voided).toEqual([]);

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      const [request] = job.approvals.requests;
      expect(request?.stepId).toBe('2-helm-rollback');
      expect(request?.binding.targets).toBe(
        'dev: Cilium from revision 3 (cilium-1.20.1, deployed) to revision 2 (cilium-1.20.1, superseded)',
      );
      expect(request?.binding.commandLine).toMatch(
        / && helm rollback cilium 2 -n kube-system \(KUBECONFIG=\S+\/\.cache\/dev\.kubeconfig\)$/,
      );
      expect(request?.binding.commit).toMatch(/^[0-9a-f]{40}$/);
      expect((await opsCalls('helm')).filter((call) => call.startsWith('rollback'))).toEqual([
        'rollback cilium 2 -n kube-system',
      ]);
      expect(lab.sim.helmHistory().at(-1)).toMatchObject({ revision: 4, description: 'Rollback to 2' });

      const texts = job.texts();
      expect(texts).toContain(
        '1-rollback-target succeeded: will roll back from revision 3 (cilium-1.20.1, deployed) to revision 2 (cilium-1.20.1, superseded)',
      );
      // One agent at a time, as a rollout is watched: each told Ready in turn, the last of 3.
      expect(
        texts.filter((text) => /^3-cilium-rollout agent cilium-\S+ on k3s-dev-\d Ready \(\d\/3\)$/.test(text))
          .length,
      ).toBeGreaterThanOrEqual(1);
      expect(texts).toContainEqual(expect.stringMatching(/^3-cilium-rollout succeeded: 3\/3 agents/));
      // Each agent told from the revision it ran before the rollback to the one it runs now: the
      // broken agent on k3s-dev-2 changes back; an agent the halted rollout never reached stays.
      const agents = job.reporter.events.flatMap((event) =>
        event.type === 'step-progress' && event.agent ? [event.agent] : [],
      );
      const rolledBack = agents.find((agent) => agent.node === 'k3s-dev-2');
      expect(rolledBack?.from).toMatch(/^[0-9a-z]+$/);
      expect(rolledBack?.to).toMatch(/^[0-9a-z]+$/);
      expect(rolledBack?.from).not.toBe(rolledBack?.to);
      expect(agents.every((agent) => agent.from !== undefined)).toBe(true);
      expect(texts).toContainEqual(expect.stringMatching(/^4-verify succeeded/));
      // Resuming Flux would re-apply the values in git, which are the ones that failed.
      expect(texts).toContain(
        '5-keep-flux-suspended succeeded: HelmRelease kube-system/cilium stays suspended (Flux would re-apply the values that failed): ' +
          'rolled back; fix the repo, then `/cluster cilium dev --resume-flux`',
      );
      expect(await opsCalls('flux')).toEqual(['suspend helmrelease cilium -n kube-system']);
      expect(lab.sim.helmRelease()?.spec.suspend).toBe(true);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a second --rollback without a revision is refused: it would roll forward to the bad revision',
    async () => {
      const job = lab.startJob('cilium dev --rollback');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(job.reporter.failedStep()?.failure?.message).toBe(
        'cannot roll back Cilium: the release is already rolled back to 2 at revision 4; name a revision to go elsewhere (revisions: 1, 2, 3, 4)',
      );
      expect(job.approvals.requests).toEqual([]);
      expect((await opsCalls('helm')).filter((call) => call.startsWith('rollback'))).toHaveLength(1);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a rejected rollback leaves Flux alone: it is suspended only once the approval is given',
    async () => {
      // The repo fixed, someone resumes Flux by hand as the rollback asked.
      const resume = lab.startJob('cilium dev --resume-flux');
      expect(await resume.runUntilDone({ approve: true })).toMatchObject({ outcome: 'succeeded' });
      expect(lab.sim.helmRelease()?.spec.suspend).toBeFalsy();
      const fluxBefore = await opsCalls('flux');
      const job = lab.startJob('cilium dev --rollback 3');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-helm-rollback' });
      job.approvals.reject('2-helm-rollback');
      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'rejected' });
      expect(await opsCalls('flux')).toEqual(fluxBefore);
      expect(lab.sim.helmRelease()?.spec.suspend).toBeFalsy();
      expect((await opsCalls('helm')).filter((call) => call.startsWith('rollback'))).toHaveLength(1);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a rollout while the live HelmRelease names another chart version than cilium_version, naming both, Flux untouched',
    async () => {
      const kc = new KubeConfig();
      kc.loadFromString(lab.sim.kubeconfig);
      await kc.makeApiClient(CustomObjectsApi).patchNamespacedCustomObject(
        {
          group: 'helm.toolkit.fluxcd.io',
          version: 'v2',
          namespace: 'kube-system',
          plural: 'helmreleases',
          name: 'cilium',
          body: { spec: { chart: { spec: { version: '1.19.3' } } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const fluxBefore = await opsCalls('flux');
      const job = lab.startJob('cilium dev');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.failedStep()?.failure?.message).toContain(
        'Cilium chart versions differ: cilium_version 1.20.1 in infra/ansible/roles/cilium/defaults/main.yml, ' +
          'spec.chart.spec.version 1.19.3 in the live HelmRelease kube-system/cilium',
      );
      expect(job.approvals.requests).toEqual([]);
      expect(await opsCalls('flux')).toEqual(fluxBefore);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
