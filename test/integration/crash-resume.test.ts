import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LabJob, type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';
import { waitFor } from '../support/wait-for.js';
import { playbookProcesses } from './playbook-processes.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const count = (lines: readonly string[], line: string) =>
  lines.filter((candidate) => candidate === line).length;
const ciliumRuns = async () =>
  count(await lab.playbookRuns(), 'ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml');
const startedSteps = (events: readonly LifecycleEvent[]) =>
  events.flatMap((event) => (event.type === 'step-started' ? [event.stepId] : []));

/** The events of the latest runPlan pass (a resumed worker's view). */
const sinceLastStart = (job: LabJob) => {
  const events = job.reporter.events;
  const lastStart = events.map((event) => event.type).lastIndexOf('plan-started');
  return events.slice(lastStart);
};

// One file, in order: both tests roll Cilium in the same kube-sim.
describe('a worker dies and another resumes the job', () => {
  it(
    'during a disruptive playbook: the interrupted step is not run again without a fresh approval',
    async () => {
      const job = lab.startJob('cilium dev');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      const eventsBefore = await lab.labEvents();
      // The approved run will sit in its report task long enough to be killed mid-playbook.
      await lab.setLab({ lab_sleep_seconds: 60 });
      job.approvals.approve('2-cilium');
      const worker = new AbortController();
      const running = job.run({ signal: worker.signal });
      await waitFor(
        'cilium.yml to reach its report task',
        async () => ((await lab.labEvents()).length > eventsBefore.length ? true : undefined),
        { timeoutMs: 30_000 },
      );
      expect(await playbookProcesses(lab.repo.ansibleDir)).not.toEqual([]);

      // The worker dies: nothing it would still write reaches the store, and its connection drops.
      job.checkpoints.crash();
      worker.abort(new Error('worker killed'));
      await running;
      await waitFor(
        'the orphaned ansible-playbook to end',
        async () => ((await playbookProcesses(lab.repo.ansibleDir)).length === 0 ? true : undefined),
        { timeoutMs: 20_000 },
      );
      expect(job.checkpoints.records.get('2-cilium')).toMatchObject({
        status: 'running',
        data: { approvalId: 'approval-1' },
      });
      expect(await ciliumRuns()).toBe(1);

      // A new worker picks the job up.
      job.checkpoints.revive();
      await lab.setLab({});
      const resumed = await job.run();

      expect(resumed).toMatchObject({ status: 'waiting', stepId: '2-cilium', approvalId: 'approval-2' });
      expect(await ciliumRuns()).toBe(1);
      expect(job.approvals.voided).toEqual([
        { id: 'approval-1', reason: 'cilium.yml was interrupted while running' },
      ]);
      expect(job.approvals.requests[1]).toMatchObject({
        stepId: '2-cilium',
        warning: expect.stringContaining(
          'This step was interrupted while running (its approval was used). Approve only if running it again is safe.',
        ),
        binding: { commit: await lab.repo.head(), preview: { ran: true } },
      });
      const resumedTexts = sinceLastStart(job).map((event) =>
        event.type === 'note' ? event.text : event.type,
      );
      expect(resumedTexts).toContain(
        'cilium.yml was interrupted while running; it will not run again without a fresh approval.',
      );
      expect(sinceLastStart(job)[0]).toMatchObject({ type: 'plan-started', resumed: true });

      // With the fresh approval it runs once more and the job completes.
      job.approvals.approve('2-cilium');
      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(await ciliumRuns()).toBe(2);
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'between steps: the resumed job continues at the next step and runs no step twice',
    async () => {
      const runsBefore = await ciliumRuns();
      const worker = new AbortController();
      let job: LabJob | undefined;
      job = lab.startJob('cilium dev', {
        onEvent: (event) => {
          // The worker dies right after the playbook's success was checkpointed.
          if (event.type === 'step-finished' && event.stepId === '2-cilium' && event.status === 'succeeded') {
            job?.checkpoints.crash();
            worker.abort(new Error('worker killed'));
          }
        },
      });
      expect(await job.runUntilDone({ approve: true, signal: worker.signal })).toMatchObject({
        status: 'finished',
        outcome: 'cancelled',
      });
      expect(job.checkpoints.records.get('2-cilium')?.status).toBe('succeeded');
      expect(job.checkpoints.records.get('3-cilium-rollout')).toBeUndefined();
      const eventsAfterCrash = await lab.labEvents();

      job.checkpoints.revive();
      const resumed = await job.run();

      expect(resumed).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 8 steps done',
      });
      const events = sinceLastStart(job);
      expect(events[0]).toMatchObject({ type: 'plan-started', resumed: true });
      expect(startedSteps(events)).toEqual([
        '3-cilium-rollout',
        '4-verify',
        '5-resume-flux',
        '5-resume-flux-settled',
        '5-resume-flux-rollout',
        '5-resume-flux-verify',
      ]);
      expect(await ciliumRuns()).toBe(runsBefore + 1);
      // The lab playbooks saw nothing more after the crash: cilium.yml was not re-run.
      expect(await lab.labEvents()).toEqual(eventsAfterCrash);
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual(['2-cilium']);
      expect(job.texts()).toContainEqual(
        expect.stringMatching(
          /^3-cilium-rollout succeeded: 3\/3 agents rolled to revision \w+ one at a time, all Ready$/,
        ),
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
