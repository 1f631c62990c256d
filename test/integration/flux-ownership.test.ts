import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ciliumReleaseValues } from '../lab/kube-sim/cilium-release-values.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

/**
 * One owner of Cilium at a time, the render checked, a rollback checked like a rollout. Flux has a
 * `cilium` HelmRelease that is not Ready (a failing, retrying release: the incident's state) and
 * whose values in git differ from what Ansible renders outside the parity fields (operator replicas),
 * so a resume makes Flux roll the agents itself.
 */
let lab: LifecycleLab;
/** Flux's spelling, built so no template placeholder sits in a string. */
const FLUX_API_HOST = ['$', '{K3S_API_HOST}'].join('');
const allVars = 'infra/ansible/group_vars/all.yml';
const clusterVars = 'clusters/dev/cluster-vars.yaml';
const platform = 'clusters/dev/platform.yaml';
beforeAll(async () => {
  lab = await startLifecycleLab({
    sim: { scenario: { helmRelease: { ready: false, values: gitValues() } } },
  });
}, LAB_TEST_TIMEOUT_MS);
afterAll(() => lab?.stop());

/** git's values: what the release runs, but for the operator's replicas (no parity field). */
function gitValues(): Record<string, unknown> {
  return { ...ciliumReleaseValues(1), operator: { replicas: 2 } };
}

const opsCalls = async (tool: 'helm' | 'flux') =>
  ((await lab.ops.readNodeState(`${tool}-calls`)) ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^KUBECONFIG=\S+ /, ''));

/** Commits a change to the lab repo; Flux serves the new commit unless told otherwise. */
async function commit(files: Record<string, string>, served = true): Promise<void> {
  for (const [path, text] of Object.entries(files)) await lab.repo.writeFile(path, text);
  const sha = await lab.repo.commit('lab: change');
  if (served) lab.sim.serveGitRevision(sha);
}

describe('Cilium with Flux: one owner at a time', () => {
  it(
    'a rollback to a revision older than maxUnavailable 1 is refused, naming field and revision, before anyone is asked',
    async () => {
      const job = lab.startJob('cilium dev --rollback 1');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({ outcome: 'failed' });
      expect(job.reporter.failedStep()?.failure?.message).toBe(
        'cannot roll back Cilium to revision 1: updateStrategy.rollingUpdate.maxUnavailable is unset (chart default 2) ' +
          "in revision 1's values (helm get values cilium --revision 1), must be 1",
      );
      expect(job.approvals.requests).toEqual([]);
      expect(await opsCalls('helm')).toContain('get values cilium --revision 1 -n kube-system -o json');
      expect((await opsCalls('helm')).filter((call) => call.startsWith('rollback'))).toEqual([]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'cilium dev suspends a HelmRelease that is not Ready, and after the resume watches the rollout Flux makes, agent by agent, then verifies',
    async () => {
      const job = lab.startJob('cilium dev');
      expect(await job.runUntilDone({ approve: true })).toMatchObject({ outcome: 'succeeded' });
      expect(await opsCalls('flux')).toEqual([
        'suspend helmrelease cilium -n kube-system',
        'resume helmrelease cilium -n kube-system',
      ]);
      const texts = job.texts();
      expect(texts).toContainEqual(
        expect.stringMatching(
          /^5-resume-flux-settled succeeded: Flux's reconcile rolls the agents from revision \S+ to \S+/,
        ),
      );
      expect(
        texts.filter((text) =>
          /^5-resume-flux-rollout agent cilium-\S+ on k3s-dev-\d Ready \(\d\/3\)$/.test(text),
        ),
      ).not.toHaveLength(0);
      expect(texts).toContainEqual(
        expect.stringMatching(/^5-resume-flux-rollout succeeded: 3\/3 agents rolled/),
      );
      expect(texts).toContainEqual(expect.stringMatching(/^5-resume-flux-verify succeeded/));
      // Flux applied git's values: the release runs them now, on a new revision.
      expect(lab.sim.helmValues()).toMatchObject({ operator: { replicas: 2 } });
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'the preflight resolves the render: an empty k3s_api_host, a cluster-vars value of another host and a platform that does not wait for flux-system are refused together',
    async () => {
      const vars = await lab.repo.readFile(allVars);
      const cm = await lab.repo.readFile(clusterVars);
      const ks = await lab.repo.readFile(platform);
      await commit({
        [allVars]: vars.replace(/^k3s_api_host: .*$/m, 'k3s_api_host: ""'),
        [clusterVars]: cm.replace('"127.0.1.11"', '"127.0.1.12"'),
        [platform]: ks.replace('  dependsOn:\n    - name: flux-system\n', ''),
      });
      try {
        const job = lab.startJob('cilium dev');
        expect(await job.runUntilDone({ approve: true })).toMatchObject({ outcome: 'failed' });
        const message = job.reporter.failedStep()?.failure?.message ?? '';
        expect(message).toContain(
          'k3s_api_host renders empty (infra/ansible/group_vars/all.yml): k8sServiceHost: "" is the incident',
        );
        expect(message).toContain(
          'Kustomization platform (clusters/dev/platform.yaml) does not dependsOn flux-system',
        );
        expect(job.approvals.requests).toEqual([]);

        // A server's address that is not the one Flux substitutes: both sides named.
        await commit({ [allVars]: vars.replace(/^k3s_api_host: .*$/m, 'k3s_api_host: 127.0.1.13') });
        const again = lab.startJob('cilium dev');
        expect(await again.runUntilDone({ approve: true })).toMatchObject({ outcome: 'failed' });
        expect(again.reporter.failedStep()?.failure?.message).toContain(
          `${FLUX_API_HOST} is 127.0.1.12 in ConfigMap cluster-vars (clusters/dev/cluster-vars.yaml) but k3s_api_host renders 127.0.1.13 (infra/ansible/group_vars/all.yml)`,
        );

        // An address that is no server of dev and not its VIP.
        await commit({ [allVars]: vars.replace(/^k3s_api_host: .*$/m, 'k3s_api_host: 127.0.2.10') });
        const third = lab.startJob('cilium dev');
        expect(await third.runUntilDone({ approve: true })).toMatchObject({ outcome: 'failed' });
        expect(third.reporter.failedStep()?.failure?.message).toContain(
          'k3s_api_host renders 127.0.2.10 (infra/ansible/group_vars/all.yml), which is neither a server of dev in infra/ansible/inventory/hosts.ini ' +
            '(k3s-dev-1=127.0.1.11, k3s-dev-2=127.0.1.12, k3s-dev-3=127.0.1.13) nor its kube_vip_address (127.0.1.49)',
        );
      } finally {
        await commit({ [allVars]: vars, [clusterVars]: cm, [platform]: ks });
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'refuses when the ops checkout is not the commit Flux serves, naming both',
    async () => {
      const served = await lab.repo.head();
      await commit({ 'clusters/dev/README.md': 'dev cluster\n' }, false);
      const head = await lab.repo.head();
      try {
        const job = lab.startJob('cilium dev');
        expect(await job.runUntilDone({ approve: true })).toMatchObject({ outcome: 'failed' });
        expect(job.reporter.failedStep()?.failure?.message).toContain(
          `the ops host's checkout is at ${head} but Flux's GitRepository flux-system/flux-system serves main@sha1:${served}`,
        );
        expect(job.approvals.requests).toEqual([]);
      } finally {
        lab.sim.serveGitRevision(head);
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    '--resume-flux asks ⚠ first, its approval showing the preflight of what git holds, and a rejection changes nothing',
    async () => {
      const fluxBefore = await opsCalls('flux');
      const job = lab.startJob('cilium dev --resume-flux');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-resume-flux' });
      const [request] = job.approvals.requests;
      expect(request?.binding.commandLine).toMatch(
        /flux resume helmrelease cilium -n kube-system \(KUBECONFIG=\S+\/\.cache\/dev\.kubeconfig\)$/,
      );
      expect(request?.binding.preflight).toMatch(
        /^k8sServiceHost renders 127\.0\.1\.11 \(infra\/ansible\/group_vars\/all\.yml\), the same in Flux's substitution; /,
      );
      job.approvals.reject('2-resume-flux');
      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'rejected' });
      expect(await opsCalls('flux')).toEqual(fluxBefore);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
