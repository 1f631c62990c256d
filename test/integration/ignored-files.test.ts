import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const LOCAL_VARS = 'infra/ansible/group_vars/k3s_servers/local.yml';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

describe('the approval binding and what git ignores', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('a vars file git ignores under group_vars refuses the Cilium rollout before anyone is asked: Ansible would load it, no commit holds it', async () => {
    // An operator's local override, kept out of git by the repo's own ignore rules.
    await appendFile(join(lab.repo.root, '.git/info/exclude'), 'infra/ansible/group_vars/*/local.yml\n');
    await lab.repo.writeFile(LOCAL_VARS, 'cilium_k8s_service_host: 127.0.1.99\n');
    try {
      const job = lab.startJob('plan cilium dev');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.planFailure()?.details?.failures).toEqual([
        expect.stringContaining(
          `the infra checkout on the ops host has files git ignores where Ansible reads them (${LOCAL_VARS}): no commit holds them`,
        ),
      ]);
      expect(job.approvals.requests).toEqual([]);
      expect(await lab.playbookRuns()).toEqual([]);
    } finally {
      await lab.repo.removeFile(LOCAL_VARS);
    }
    // lab.yml and .lab-out/ are ignored too, but Ansible does not read them as inventory, vars or roles.
    const job = lab.startJob('plan cilium dev');
    expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
  });
});
