import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

const FLEET02_VARS =
  '-e k3s_hosts=k3s_fleet02 -e k3s_primary_hosts=k3s_fleet02_primary -e k3s_secondary_hosts=k3s_fleet02_secondary';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab({ fleet: { count: 2 } });
}, LAB_TEST_TIMEOUT_MS);
afterAll(async () => {
  await lab?.stop();
});

// The lab fleet the scale-out benchmark runs on: each cluster its own API, nodes and inventory groups.
describe('a lab fleet beside dev and prod', () => {
  it(
    'verify fleet02 reads fleet02’s API and its servers’ k3s config as k3s.yml wrote it, and passes',
    async () => {
      const before = lab.fleet.map(({ sim }) => sim.requests.length);
      const job = lab.startJob('verify fleet02');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.reporter.texts().join('\n')).toContain(
        'k3s starts with disable-kube-proxy on k3s-fleet02-1, k3s-fleet02-2, k3s-fleet02-3',
      );
      expect(lab.fleet.map(({ sim }, index) => sim.requests.length > before[index]!)).toEqual([false, true]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'packages k3s-fleet02-3 runs the packages baseline through fleet02’s groups, on that node only, unapproved',
    async () => {
      const job = lab.startJob('packages k3s-fleet02-3');
      expect(await job.runUntilDone()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.requests).toEqual([]);
      expect(await lab.playbookRuns()).toEqual([
        `ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml ${FLEET02_VARS} --limit k3s-fleet02-3 --tags packages`,
      ]);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
