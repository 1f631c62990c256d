import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFRA_REPO_PATHS } from '../lab/infra-repo.js';
import { LAB_TEST_TIMEOUT_MS, UNSERVED_ADDRESS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

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
    'packages k3s-prod-1 is refused while prod has no vault; with it, it is approved and runs only the packages tag despite BLOCKED disks',
    async () => {
      const refused = lab.startJob('packages k3s-prod-1');
      expect(await refused.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'failed',
      });
      expect(refused.approvals.requests).toEqual([]);
      expect(refused.reporter.planFailure()?.details?.failures).toEqual([
        'infra/ansible/group_vars/k3s_prod/vault.yml is missing: no become password, so no prod play can escalate',
      ]);
      expect(await lab.playbookRuns()).toEqual([]);

      await lab.repo.addVault();
      await lab.repo.commit('prod: vault with the become password');
      const job = lab.startJob('packages k3s-prod-1');

      expect(await job.runUntilDone()).toMatchObject({
        status: 'waiting',
        stepId: '2-node-baseline-packages',
      });
      expect(job.approvals.requests[0]!.reason).toBe('production: installs packages on k3s-prod-1');
      const result = await job.runUntilDone({ approve: true });

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(await lab.playbookRuns()).toEqual([
        `ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      ]);
      expect(await lab.ops.commands()).toContain(
        `cd -- ${lab.repo.ansibleDir} && env ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_RETRY_FILES_ENABLED=0 PYTHONUNBUFFERED=1 ANSIBLE_CONFIG=${lab.repo.ansibleDir}/ansible.cfg KUBECONFIG=${lab.repo.root}/.cache/prod.kubeconfig ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${PROD_VARS} --limit k3s-prod-1 --tags packages`,
      );
      const tasks = job.reporter.lines.filter((line) => line.startsWith('TASK ['));
      expect(tasks.map((line) => line.replace(/\s*\**$/, ''))).toEqual([
        'TASK [node_baseline : Install base packages]',
        'TASK [node_baseline : Report node baseline]',
      ]);
      expect((await lab.labEvents()).filter((line) => !line.includes('--check'))).toContain(
        'node-baseline.yml k3s-prod-1',
      );
      const out = join(lab.repo.root, INFRA_REPO_PATHS.labOut, 'k3s-prod-1', 'baseline');
      expect(await exists(join(out, 'packages.txt'))).toBe(true);
      expect(await exists(join(out, 'fstab.d'))).toBe(false);
      expect(job.texts()).toContain('2-node-baseline-packages node-baseline.yml targets exactly k3s-prod-1');
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          /^2-node-baseline-packages succeeded: node-baseline.yml ok \(k3s-prod-1 ok=2 changed=1 /,
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

      // With its API down, prod is a first run only if every server in hosts.ini says it has no k3s.
      const unproven = expect.stringMatching(
        new RegExp(
          "^prod's API does not answer \\(.+\\) and k3s-prod-3 did not say whether k3s is installed there \\(.+\\): " +
            'the bot cannot prove a first run, in which alone k3s\\.yml may found the cluster with --cluster-init on k3s-prod-1$',
        ),
      );

      const fluxDev = expect.stringMatching(
        /^the Flux hand-off would bootstrap prod with --path=clusters\/dev \(bootstrap\/flux\/bootstrap\.sh, run by flux_bootstrap_flux_cmd in infra\/ansible\/roles\/flux_bootstrap\/defaults\/main\.yml\), not clusters\/prod/,
      );
      // `plan up prod` lists the same refusals (and what --list-hosts finds) while running nothing.
      const planned = lab.startJob('plan up prod', { world: unreachableWorld });
      expect(await planned.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(planned.reporter.planFailure()?.details?.failures).toEqual([
        '1. preconditions: k3s-prod-2 is still commented out of inventory/hosts.ini',
        '1. preconditions: k3s-prod-3 is still commented out of inventory/hosts.ini',
        expect.stringMatching(
          /^1\. preconditions: the Flux hand-off would bootstrap prod with --path=clusters\/dev/,
        ),
        '1. preconditions: prod has 1 server in inventory/hosts.ini (k3s_prod: k3s-prod-1): a production cluster needs an odd number of servers, at least 3',
        expect.stringMatching(
          /^1\. preconditions: infra\/ansible\/group_vars\/k3s_prod\/vars\.yml still has 2 BLOCKED placeholders/,
        ),
        expect.stringMatching(/^1\. preconditions: k3s-prod-3 \(127\.0\.0\.29\) is unreachable over SSH/),
        ...['node-baseline.yml', 'k3s.yml', 'cilium.yml', 'flux-bootstrap.yml', 'kube-vip.yml'].map(
          (playbook) =>
            expect.stringMatching(
              new RegExp(
                `^\\d+\\. ${playbook.replace('.', '\\.')}: ${playbook.replace('.', '\\.')} would not run on exactly k3s-prod-1, k3s-prod-2, k3s-prod-3: k3s-prod-2 is in no play's hosts`,
              ),
            ),
        ),
      ]);
      expect(planned.approvals.requests).toEqual([]);
      expect(await lab.playbookRuns()).toHaveLength(runsBefore);

      expect(await preconditions()).toEqual([
        'k3s-prod-2 is still commented out of inventory/hosts.ini',
        'k3s-prod-3 is still commented out of inventory/hosts.ini',
        fluxDev,
        'prod has 1 server in inventory/hosts.ini (k3s_prod: k3s-prod-1): a production cluster needs an odd number of servers, at least 3',
        expect.stringMatching(
          /^infra\/ansible\/group_vars\/k3s_prod\/vars\.yml still has 2 BLOCKED placeholders \(disk layout decision\): lines \d+, \d+$/,
        ),
        unreachable,
      ]);

      await lab.repo.enableProdNode('k3s-prod-2');
      await lab.repo.enableProdNode('k3s-prod-3');
      await lab.repo.commit('prod: rack k3s-prod-2 and k3s-prod-3');
      expect(await preconditions()).toEqual([
        unproven,
        fluxDev,
        expect.stringContaining('BLOCKED placeholders'),
        unreachable,
      ]);

      // The operators' fix is a bootstrap/ change: prod's own entrypoint, named in prod's group_vars.
      await lab.repo.giveProdItsOwnFluxPath();
      await lab.repo.resolveBlocked();
      await lab.repo.commit('prod: its own Flux path, disk layout decided');
      expect(await preconditions()).toEqual([unproven, unreachable]);
      expect(await lab.playbookRuns()).toHaveLength(runsBefore);

      // Every node racked and answering: the plan goes on, and even the baseline (it formats disks) asks first.
      const job = lab.startJob('up prod');
      expect(await job.runUntilDone()).toMatchObject({ status: 'waiting', stepId: '2-node-baseline' });
      expect(job.texts()).toContain(
        "1-preconditions succeeded: 10 checks passed: the repo's ansible.cfg, its kubeconfig, VIP and API host are its own, founder per hosts.ini, founder in the cluster, nodes in hosts.ini, Flux path, odd number of servers ≥ 3, vault, no BLOCKED disks, node SSH",
      );
      expect(job.approvals.requests[0]).toMatchObject({
        stepId: '2-node-baseline',
        reason: 'production: a full baseline formats and mounts the Longhorn and etcd disks (the disks tag)',
      });
      expect(await lab.playbookRuns()).toHaveLength(runsBefore);
      job.approvals.approve('2-node-baseline');
      const result = await job.runUntilDone();
      expect(result).toMatchObject({ status: 'waiting', stepId: '3-k3s' });
      expect((await lab.playbookRuns()).slice(runsBefore)).toEqual([
        `ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${PROD_VARS}`,
      ]);
      expect(
        (await lab.labEvents()).filter((line) => /^node-baseline.yml k3s-prod-[23]/.test(line)).sort(),
      ).toEqual([
        // Once in the --check preview shown with the approval, once for real.
        'node-baseline.yml k3s-prod-2',
        'node-baseline.yml k3s-prod-2',
        'node-baseline.yml k3s-prod-3',
        'node-baseline.yml k3s-prod-3',
      ]);
      const request = job.approvals.requests[1]!;
      expect(job.approvals.requests).toHaveLength(2);
      expect(request).toMatchObject({
        stepId: '3-k3s',
        cluster: 'prod',
        reason: expect.stringMatching(/^prod init on its first run: /),
        binding: {
          commit: await lab.repo.head(),
          commandLine: `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.ansibleDir} && ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml ${PROD_VARS}`,
          // On a first run check mode cannot go through: the founder's node-token does not exist
          // until k3s really starts there, so the joiners' fetch fails, and the approval says so.
          preview: {
            ran: false,
            failure: expect.stringMatching(
              /k3s-prod-2: k3s_server : Fetch the node-token from the founder: /,
            ),
          },
        },
      });
      // The join play goes one server at a time (serial: 1), so the first joiner's failed fetch ends
      // the preview before k3s-prod-3's turn.
      expect(Object.keys(request.binding.preview!.changedTasks).sort()).toEqual(['k3s-prod-1', 'k3s-prod-2']);
      expect(request.binding.preview!.failure).toMatch(/^k3s-prod-2: /);
      expect(request.binding.preview!.changedTasks['k3s-prod-2']).toContain('k3s_server : Install k3s');
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
