import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import {
  LAB_TEST_TIMEOUT_MS,
  type LifecycleLab,
  startLifecycleLab,
  UNSERVED_ADDRESS,
} from './start-lifecycle-lab.js';

const PROD_VARS =
  '-e k3s_hosts=k3s_prod -e k3s_primary_hosts=k3s_prod_primary -e k3s_secondary_hosts=k3s_prod_secondary';

let lab: LifecycleLab;
beforeAll(async () => {
  // The repo as the operators have it today: only k3s-prod-1 racked, no vault, disk layout BLOCKED.
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

// One file, in order: the prod tests fix the repo step by step.
describe('packages and up prod against the lab', () => {
  it(
    'packages k3s-prod-1 runs only the packages tag, with the prod extra vars and --limit, despite BLOCKED disks',
    async () => {
      const job = lab.startJob('packages k3s-prod-1');

      const result = await job.runUntilDone();

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.requests).toEqual([]);
      expect(await lab.playbookRuns()).toEqual([
        `ansible-playbook playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      ]);
      expect(await lab.ops.commands()).toContain(
        `cd -- ${lab.repo.ansibleDir} && env ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_RETRY_FILES_ENABLED=0 PYTHONUNBUFFERED=1 ansible-playbook playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      );
      const tasks = job.reporter.lines.filter((line) => line.startsWith('TASK ['));
      expect(tasks.map((line) => line.replace(/\s*\**$/, ''))).toEqual([
        'TASK [node_baseline : Install base packages]',
        'TASK [node_baseline : Report node baseline]',
      ]);
      expect(await lab.labEvents()).toEqual(['node-baseline.yml k3s-prod-1']);
      const out = join(lab.repo.root, INFRA_REPO_PATHS.labOut, 'k3s-prod-1', 'baseline');
      expect(await exists(join(out, 'packages.txt'))).toBe(true);
      expect(await exists(join(out, 'fstab.d'))).toBe(false);
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          /^1-node-baseline-packages succeeded: node-baseline.yml ok \(k3s-prod-1 ok=2 changed=1 /,
        ),
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a failing task fails the step with host, task and msg (lab_fail)',
    async () => {
      await lab.setLab({
        lab_fail: [
          { task: 'Install base packages', host: 'k3s-dev-2', msg: 'E: Unable to locate package open-iscsi' },
        ],
      });
      try {
        const job = lab.startJob('packages k3s-dev-2');

        const result = await job.runUntilDone();

        expect(result).toMatchObject({
          status: 'finished',
          outcome: 'failed',
          summary:
            'node-baseline.yml failed: k3s-dev-2: node_baseline : Install base packages: E: Unable to locate package open-iscsi',
        });
        expect(job.reporter.planFailure()).toMatchObject({
          code: 'PLAYBOOK_FAILED',
          details: {
            playbook: 'node-baseline.yml',
            exitCode: 2,
            failures: [
              {
                host: 'k3s-dev-2',
                task: 'node_baseline : Install base packages',
                msg: 'E: Unable to locate package open-iscsi',
              },
            ],
            recap: { 'k3s-dev-2': expect.objectContaining({ failed: 1 }) },
          },
        });
        expect(job.reporter.lines).toContainEqual(expect.stringMatching(/^fatal: \[k3s-dev-2\]: FAILED!/));
      } finally {
        await lab.setLab({});
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'up prod refuses before any playbook or approval, listing every failed precondition, until all are fixed',
    async () => {
      const runsBefore = (await lab.playbookRuns()).length;
      const unreachableWorld = lab.worldWith({ prodAddresses: { 'k3s-prod-3': UNSERVED_ADDRESS } });
      const preconditions = async () => {
        const job = lab.startJob('up prod', { world: unreachableWorld });
        const result = await job.runUntilDone({ approve: true });
        expect(result).toMatchObject({ status: 'finished', outcome: 'failed' });
        expect(job.approvals.requests).toEqual([]);
        expect(job.texts()).toContain('2-node-baseline skipped: not run');
        const failure = job.reporter.planFailure();
        expect(failure?.code).toBe('PRECONDITION_FAILED');
        return (failure?.details?.failures ?? []) as string[];
      };
      const unreachable = expect.stringMatching(
        new RegExp(
          `^k3s-prod-3 \\(${UNSERVED_ADDRESS.replaceAll('.', '\\.')}\\) is unreachable over SSH: .+`,
        ),
      );

      expect(await preconditions()).toEqual([
        'k3s-prod-2 is still commented out of the inventory',
        'k3s-prod-3 is still commented out of the inventory',
        'infra/ansible/group_vars/k3s_prod/vault.yml is missing (no become password for prod)',
        expect.stringMatching(
          /^infra\/ansible\/group_vars\/k3s_prod\/vars\.yml still has 2 BLOCKED placeholders \(disk layout decision\): line \d+, \d+$/,
        ),
        unreachable,
      ]);

      await lab.repo.enableProdNode('k3s-prod-2');
      await lab.repo.enableProdNode('k3s-prod-3');
      expect(await preconditions()).toEqual([
        'infra/ansible/group_vars/k3s_prod/vault.yml is missing (no become password for prod)',
        expect.stringContaining('BLOCKED placeholders'),
        unreachable,
      ]);

      await lab.repo.addVault();
      await lab.repo.resolveBlocked();
      expect(await preconditions()).toEqual([unreachable]);
      expect(await lab.playbookRuns()).toHaveLength(runsBefore);

      // Every node racked and answering: the plan goes on and stops to ask for the prod init.
      const job = lab.startJob('up prod');
      const result = await job.runUntilDone();
      expect(result).toMatchObject({ status: 'waiting', stepId: '3-k3s' });
      expect(job.texts()).toContain(
        '1-preconditions succeeded: all 3 nodes in the inventory and reachable, vault present, no BLOCKED placeholder',
      );
      expect((await lab.playbookRuns()).slice(runsBefore)).toEqual([
        `ansible-playbook playbooks/node-baseline.yml ${PROD_VARS}`,
      ]);
      expect(
        (await lab.labEvents()).filter((line) => line.startsWith('node-baseline.yml k3s-prod')).sort(),
      ).toEqual([
        'node-baseline.yml k3s-prod-1',
        'node-baseline.yml k3s-prod-1',
        'node-baseline.yml k3s-prod-2',
        'node-baseline.yml k3s-prod-3',
      ]);
      const request = job.approvals.requests[0]!;
      expect(job.approvals.requests).toHaveLength(1);
      expect(request).toMatchObject({
        stepId: '3-k3s',
        cluster: 'prod',
        reason: expect.stringMatching(/^prod init: /),
        binding: {
          commit: await lab.repo.head(),
          commandLine: `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.ansibleDir} && ansible-playbook playbooks/k3s.yml ${PROD_VARS}`,
          preview: { ran: true },
        },
      });
      expect(Object.keys(request.binding.preview!.changedTasks).sort()).toEqual([
        'k3s-prod-1',
        'k3s-prod-2',
        'k3s-prod-3',
      ]);
      expect(request.binding.preview!.changedTasks['k3s-prod-2']).toContain('k3s_server : Install k3s');
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
