import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS, type LifecycleLab, startLifecycleLab } from './start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  // The repo as the operators have it today: k3s-prod-2/-3 configured but commented out of hosts.ini.
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

/** Real ansible-playbook runs since `before` (the count). */
const runsSince = async (before: number) => (await lab.playbookRuns()).slice(before);

describe('health <node|cluster> against the lab', () => {
  it(
    'health dev runs node-health.yml on k3s_servers, asks no approval, and reports each host ok',
    async () => {
      const before = (await lab.playbookRuns()).length;
      const job = lab.startJob('health dev');

      const result = await job.runUntilDone();

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.requests).toEqual([]);
      expect(await runsSince(before)).toEqual([
        'ansible-playbook playbooks/node-health.yml -e node_health_hosts=k3s_servers',
      ]);
      expect(job.reporter.finishedSteps().map((step) => [step.stepId, step.status, step.summary])).toEqual([
        [
          '1-node-health',
          'succeeded',
          'node-health.yml: 3 hosts healthy\n• k3s-dev-1: ok\n• k3s-dev-2: ok\n• k3s-dev-3: ok',
        ],
      ]);
      expect(job.reporter.lines).toContain(
        'TASK [node_health : Check k3s service is active] *******************************',
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'an unhealthy host fails the job, named with its task and msg; an unreachable one too; the healthy one is listed',
    async () => {
      await lab.setLab({
        lab_fail: [
          { task: 'Check k3s service is active', host: 'k3s-dev-2', msg: 'k3s.service is inactive (dead)' },
        ],
        lab_unreachable: ['k3s-dev-3'],
      });
      try {
        const job = lab.startJob('health dev');

        const result = await job.runUntilDone();

        expect(result).toEqual({
          status: 'finished',
          outcome: 'failed',
          summary: [
            'node-health.yml failed: k3s-dev-2, k3s-dev-3 unhealthy (2 of 3 hosts)',
            '• k3s-dev-1: ok',
            '• k3s-dev-2: failed at node_health : Check k3s service is active: k3s.service is inactive (dead)',
            '• k3s-dev-3: unreachable: Failed to connect to the host via ssh: ssh: connect to host 127.0.0.1 port 1: Connection refused',
          ].join('\n'),
        });
        expect(job.reporter.planFailure()?.code).toBe('PLAYBOOK_FAILED');
        // An on-demand check answers in its thread: nothing goes to the alerts channel.
        expect(job.reporter.events.some((event) => event.type === 'gate-failed')).toBe(false);
      } finally {
        await lab.setLab({});
      }
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'health k3s-dev-2 points node_health_hosts at that node only',
    async () => {
      const before = (await lab.playbookRuns()).length;
      const job = lab.startJob('health k3s-dev-2');

      const result = await job.runUntilDone();

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(await runsSince(before)).toEqual([
        'ansible-playbook playbooks/node-health.yml -e node_health_hosts=k3s-dev-2',
      ]);
      expect(job.reporter.finishedSteps()[0]?.summary).toBe(
        'node-health.yml: 1 host healthy\n• k3s-dev-2: ok',
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'health prod checks the k3s_prod group with node_health_hosts only, and names the nodes hosts.ini leaves out',
    async () => {
      const before = (await lab.playbookRuns()).length;
      const job = lab.startJob('health prod');

      const result = await job.runUntilDone();

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(await runsSince(before)).toEqual([
        'ansible-playbook playbooks/node-health.yml -e node_health_hosts=k3s_prod',
      ]);
      expect(job.reporter.finishedSteps()[0]?.summary).toBe(
        [
          'node-health.yml: 1 host healthy',
          '• k3s-prod-1: ok',
          '• k3s-prod-2: not checked (node_health_hosts=k3s_prod does not match it in inventory/hosts.ini)',
          '• k3s-prod-3: not checked (node_health_hosts=k3s_prod does not match it in inventory/hosts.ini)',
        ].join('\n'),
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a configured node missing from hosts.ini: ansible says "no hosts matched" and exits 0, the job fails',
    async () => {
      const job = lab.startJob('health k3s-prod-2');

      const result = await job.runUntilDone();

      expect(result).toEqual({
        status: 'finished',
        outcome: 'failed',
        summary:
          'node-health.yml failed: node_health_hosts=k3s-prod-2 matched no host in inventory/hosts.ini, so nothing was checked',
      });
      expect(job.reporter.lines).toContain('skipping: no hosts matched');
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it('an unknown target is refused before anything runs on the ops host', async () => {
    const commandsBefore = (await lab.ops.commands()).length;

    for (const target of ['k3s-dev-9', 'all', 'k3s_servers', 'dev,prod']) {
      expect(() => lab.startJob(`health ${target}`)).toThrow(
        `command refused: unknown node or cluster "${target}"`,
      );
    }

    expect((await lab.ops.commands()).length).toBe(commandsBefore);
  });
});
