import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const ciliumRuns = async () =>
  (await lab.playbookRuns()).filter(
    (line) => line === 'ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml',
  ).length;

describe('approvals are bound to what will run', () => {
  it(
    'a preview that check mode cannot finish says why, and the approval is still asked',
    async () => {
      await lab.setLab({
        lab_fail: [
          { task: 'Render Cilium values', msg: 'AnsibleUndefinedVariable: k3s_api_host is undefined' },
        ],
      });
      const job = lab.startJob('cilium dev');
      try {
        expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      } finally {
        await lab.setLab({});
      }
      expect(job.approvals.requests[0]!.binding.preview).toMatchObject({
        ran: false,
        failure:
          'k3s-dev-1: cilium : Render Cilium values: AnsibleUndefinedVariable: k3s_api_host is undefined',
        changedTasks: { 'k3s-dev-1': ['cilium : Install Gateway API CRDs'] },
      });
      expect(await ciliumRuns()).toBe(0);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'an approval is void once the infra repo moves: it asks again showing both commits, and runs nothing meanwhile',
    async () => {
      const runsBefore = await ciliumRuns();
      const job = lab.startJob('cilium dev');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      const approvedAt = await lab.repo.head();
      await lab.repo.writeFile('platform/README.md', 'an unrelated change\n');
      const movedTo = await lab.repo.commit('docs: a commit lands while the approval is pending');
      job.approvals.approve('2-cilium');

      expect(await job.run()).toMatchObject({
        status: 'waiting',
        stepId: '2-cilium',
        approvalId: 'approval-2',
      });

      expect(await ciliumRuns()).toBe(runsBefore);
      expect(job.approvals.voided).toEqual([
        {
          id: 'approval-1',
          reason: `the infra repo moved from ${approvedAt.slice(0, 12)} to ${movedTo.slice(0, 12)}`,
        },
      ]);
      expect(job.approvals.requests[1]).toMatchObject({
        previousCommit: approvedAt,
        binding: { commit: movedTo, preview: { ran: true } },
      });
      expect(job.approvals.requests[1]!.binding.fingerprint).not.toBe(
        job.approvals.requests[0]!.binding.fingerprint,
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
