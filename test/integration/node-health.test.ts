import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  // The repo as the operators have it today: k3s-prod-2/-3 configured but commented out of hosts.ini.
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

/** Runs `health <target>` to its end: the job, its result, the real playbook runs it made. */
async function health(target: string) {
  const before = (await lab.playbookRuns()).length;
  const job = lab.startJob(`health ${target}`);
  const result = await job.runUntilDone();
  return { job, result, runs: (await lab.playbookRuns()).slice(before) };
}

const NOT_IN_PROD_GROUP = 'not checked (node_health_hosts=k3s_prod does not match it in inventory/hosts.ini)';

describe('health <node|cluster> against the lab', () => {
  it(
    'health dev runs node-health.yml on k3s_servers, with no approval and no --list-hosts proof first, and reports each host ok',
    async () => {
      const { job, result, runs } = await health('dev');

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(job.approvals.requests).toEqual([]);
      // The one run: a read-only diagnostic proves its targets from its own recap, not beforehand.
      expect(runs).toEqual([
        'ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s_servers',
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
        const { job, result } = await health('dev');

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
    'a node: node_health_hosts is that node; prod: its k3s_prod group, naming the nodes hosts.ini leaves out',
    async () => {
      const node = await health('k3s-dev-2');
      const prod = await health('prod');

      expect([node.result, prod.result]).toMatchObject([{ outcome: 'succeeded' }, { outcome: 'succeeded' }]);
      expect([...node.runs, ...prod.runs]).toEqual([
        'ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s-dev-2',
        'ansible-playbook -i inventory/hosts.ini playbooks/node-health.yml -e node_health_hosts=k3s_prod',
      ]);
      expect([node.job, prod.job].map((job) => job.reporter.finishedSteps()[0]?.summary)).toEqual([
        'node-health.yml: 1 host healthy\n• k3s-dev-2: ok',
        [
          'node-health.yml: 1 host healthy',
          '• k3s-prod-1: ok',
          `• k3s-prod-2: ${NOT_IN_PROD_GROUP}`,
          `• k3s-prod-3: ${NOT_IN_PROD_GROUP}`,
        ].join('\n'),
      ]);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a configured node missing from hosts.ini: ansible says "no hosts matched" and exits 0, the job fails',
    async () => {
      const { job, result } = await health('k3s-prod-2');

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
