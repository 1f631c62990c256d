import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** The lab's ops host is this machine: a step's detached folder, as the bot lays it out in the repo. */
const folderOf = (job: string, step: string) => join(lab.world.ops.repoPath, '.cache/cluster-bot', job, step);
const outLines = async (job: string, step: string) =>
  (await readFile(join(folderOf(job, step), 'out'), 'utf8')).split('\n').slice(0, -1);

/**
 * The worker dies as a SIGKILL kills it: nothing it would still write reaches the job's store or its
 * thread, it follows nothing any more, and its SSH connection drops without a word (the ops host's
 * sessions are killed under it).
 */
async function killWorker(job: LabJob, running: Promise<unknown>) {
  job.checkpoints.crash();
  await lab.ops.killSessions();
  await running;
}

/**
 * Approves the job's cilium.yml and runs it until it sits in its report task (long enough to cut
 * something under it there; it prints more after). Returns the run and the lab events before it.
 */
async function runCiliumToItsReport(job: LabJob, sleepSeconds: number, signal?: AbortSignal) {
  expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
  const eventsBefore = await lab.labEvents();
  await lab.setLab({ lab_sleep_seconds: sleepSeconds, lab_output_lines: 30 });
  job.approvals.approve('2-cilium');
  const running = job.run({ signal });
  await waitFor(
    'cilium.yml to reach its report task',
    async () => ((await lab.labEvents()).length > eventsBefore.length ? true : undefined),
    { timeoutMs: 30_000 },
  );
  return { running, eventsBefore };
}

// One file, in order: the tests roll Cilium in the same kube-sim.
describe('a worker dies and another resumes the job', () => {
  it(
    'during a disruptive playbook: the resumed job follows the playbook still running; it runs once, each line shown once',
    async () => {
      const job = lab.startJob('cilium dev');
      const { running, eventsBefore } = await runCiliumToItsReport(job, 8);
      await killWorker(job, running);
      const shownBefore = job.reporter.linesOf('2-cilium').length;
      // The playbook outlived the worker.
      expect(await playbookProcesses(lab.repo.ansibleDir)).not.toEqual([]);
      expect(job.checkpoints.records.get('2-cilium')).toMatchObject({
        status: 'running',
        data: { approvalId: 'approval-1' },
      });

      // A new worker picks the job up while the playbook still runs.
      job.checkpoints.revive();
      const resumed = await job.run();
      await lab.setLab({});

      expect(resumed).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 8 steps done',
      });
      // One start, one end: the argv log has one run, the playbook's own log one report per host.
      expect(await ciliumRuns()).toBe(1);
      const reported = (await lab.labEvents()).slice(eventsBefore.length);
      expect(reported.filter((line) => line.startsWith('cilium.yml '))).toEqual([
        'cilium.yml k3s-dev-1',
        'cilium.yml k3s-dev-2',
        'cilium.yml k3s-dev-3',
      ]);
      expect(job.approvals.requests).toHaveLength(1);
      expect(job.approvals.voided).toEqual([]);
      const resumedTexts = sinceLastStart(job).map((event) =>
        event.type === 'note' ? event.text : event.type,
      );
      expect(resumedTexts).toContain(
        `worker restarted; following the running \`cilium.yml\` from line ${shownBefore + 1}`,
      );
      // Every line the playbook printed, once, in order: the dead worker's share and then the rest.
      const printed = await outLines(job.jobFolder, '2-cilium');
      expect(printed).toContain(
        'PLAY RECAP *********************************************************************',
      );
      expect(job.reporter.linesOf('2-cilium')).toEqual(printed);
      expect(shownBefore).toBeGreaterThan(0);
      expect(shownBefore).toBeLessThan(printed.length);
      expect(job.texts()).toContainEqual(expect.stringMatching(/^2-cilium succeeded: cilium\.yml ok \(/));
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
  it(
    'a playbook that fails after its worker died: the resumed job reports its real exit code and output',
    async () => {
      const runsBefore = await ciliumRuns();
      const job = lab.startJob('cilium dev');
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      await lab.setLab({
        lab_rollout_wait_seconds: 6,
        lab_fail: [{ task: 'Report Cilium', msg: 'agents did not report after the rollout' }],
      });
      job.approvals.approve('2-cilium');
      const running = job.run();
      await waitFor(
        'cilium.yml to wait on its rollout',
        () =>
          job.reporter.linesOf('2-cilium').some((line) => line.startsWith('TASK [cilium : Wait for Cilium')),
        { timeoutMs: 30_000 },
      );
      await killWorker(job, running);

      job.checkpoints.revive();
      const resumed = await job.run();
      await lab.setLab({});

      expect(resumed).toMatchObject({ status: 'finished', outcome: 'failed' });
      expect(job.reporter.planFailure()).toMatchObject({
        code: 'PLAYBOOK_FAILED',
        message:
          'cilium.yml failed: k3s-dev-1: cilium : Report Cilium: agents did not report after the rollout',
        details: { exitCode: 2 },
      });
      expect(job.reporter.linesOf('2-cilium')).toEqual(await outLines(job.jobFolder, '2-cilium'));
      expect(await ciliumRuns()).toBe(runsBefore + 1);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});

describe('a foreign run of the same job id left its folder on the ops host', () => {
  /**
   * job-7 of another deployment sharing the ops host (or of this one before its Redis lost its data,
   * or under another key prefix) ran cilium.yml here: it failed, and its folder stayed.
   */
  async function leaveForeignRun(jobId: string) {
    const foreign = folderOf(jobId, '2-cilium');
    await mkdir(foreign, { recursive: true });
    await Promise.all([
      writeFile(join(foreign, 'out'), 'the foreign run’s line\n'),
      writeFile(join(foreign, 'pid'), '1\n'),
      writeFile(join(foreign, 'rc'), '2\n'),
    ]);
    // It started an hour before the job was recorded.
    const anHourBefore = new Date(Date.now() - 3_600_000);
    await utimes(join(foreign, 'pid'), anHourBefore, anHourBefore);
    return async () => readFile(join(foreign, 'out'), 'utf8');
  }

  /** The step ran once, its own run: its lines are its own folder's, none of the foreign one's. */
  async function expectOwnRun(job: LabJob, runsBefore: number) {
    expect(await ciliumRuns()).toBe(runsBefore + 1);
    const printed = await outLines(job.jobFolder, '2-cilium');
    expect(printed).toContain(
      'PLAY RECAP *********************************************************************',
    );
    expect(job.reporter.linesOf('2-cilium')).toEqual(printed);
    expect(job.texts().filter((text) => text.includes('worker restarted'))).toEqual([]);
  }

  it(
    'a fresh job with that id runs the step once, showing its own output: it neither refuses nor follows the foreign run',
    async () => {
      const runsBefore = await ciliumRuns();
      const foreignOut = await leaveForeignRun('job-7');
      const job = lab.startJob('cilium dev', { jobId: 'job-7' });

      expect(await job.runUntilDone({ approve: true })).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 8 steps done',
      });
      await expectOwnRun(job, runsBefore);
      expect(await foreignOut()).toBe('the foreign run’s line\n');
    },
    LAB_TEST_TIMEOUT_MS,
  );

  it(
    'a job with that id whose worker died before it started the step starts it, never taking the foreign run for its own',
    async () => {
      const runsBefore = await ciliumRuns();
      await leaveForeignRun('job-8');
      const job = lab.startJob('cilium dev', { jobId: 'job-8' });
      expect(await job.run()).toMatchObject({ status: 'waiting', stepId: '2-cilium' });
      job.approvals.approve('2-cilium');
      // The worker checkpointed the approved step as running, and died before starting its command.
      const approval = (await job.approvals.desk.state('2-cilium')) as { id: string };
      await job.checkpoints.set('2-cilium', {
        status: 'running',
        startedAt: Date.now(),
        data: { approvalId: approval.id },
      });

      expect(await job.run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      await expectOwnRun(job, runsBefore);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});

describe('a rolling update from the version before folder tags', () => {
  it(
    'an old worker started the tagged job’s playbook in the legacy folder and was stopped: the resumed job follows it there, it runs once',
    async () => {
      const runsBefore = await ciliumRuns();
      // The old version ignores the tag the new one recorded: its commands run in `<job>/<step>`.
      let oldWorker = true;
      const job = lab.startJob('cilium dev', {
        jobId: 'job-9',
        // Its detached commands' folder reaches the host as an argument of the detach scripts.
        wrapShell: (shell) => ({
          ...shell,
          exec: (target, request) =>
            shell.exec(target, {
              ...request,
              argv: oldWorker
                ? request.argv.map((word) => word.replace(`/${job.jobFolder}/`, '/job-9/'))
                : request.argv,
            }),
        }),
      });
      const { running } = await runCiliumToItsReport(job, 8);
      await killWorker(job, running);
      const shownBefore = job.reporter.linesOf('2-cilium').length;

      oldWorker = false;
      job.checkpoints.revive();
      const resumed = await job.run();
      await lab.setLab({});

      expect(resumed).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 8 steps done',
      });
      expect(await ciliumRuns()).toBe(runsBefore + 1);
      expect(sinceLastStart(job).flatMap((event) => (event.type === 'note' ? [event.text] : []))).toEqual(
        expect.arrayContaining([
          `a worker of a version before folder tags started this step's command in ${folderOf('job-9', '2-cilium')} on ops, after this job was recorded (clocks two minutes apart allowed): it is this job's, followed there`,
          `worker restarted; following the running \`cilium.yml\` from line ${shownBefore + 1}`,
        ]),
      );
      expect(job.reporter.linesOf('2-cilium')).toEqual(await outLines('job-9', '2-cilium'));
    },
    LAB_TEST_TIMEOUT_MS,
  );
});

describe('the ops host’s connection drops while the worker lives', () => {
  it(
    'the step follows the playbook again and waits for its end: no failure, one run, each line shown once',
    async () => {
      const runsBefore = await ciliumRuns();
      // Until the playbook ends the step holds on (the job, and with it the cluster's lease).
      let playbooksAtStepEnd: Promise<unknown[]> | undefined;
      const job = lab.startJob('cilium dev', {
        onEvent: (event) => {
          if (event.type === 'step-finished' && event.stepId === '2-cilium')
            playbooksAtStepEnd = playbookProcesses(lab.repo.ansibleDir);
        },
      });
      const { running } = await runCiliumToItsReport(job, 6);
      await lab.ops.killSessions();
      const result = await running;
      await lab.setLab({});

      expect(result).toMatchObject({ status: 'finished', outcome: 'succeeded', summary: 'all 8 steps done' });
      expect(await playbooksAtStepEnd).toEqual([]);
      expect(await ciliumRuns()).toBe(runsBefore + 1);
      expect(job.reporter.linesOf('2-cilium')).toEqual(await outLines(job.jobFolder, '2-cilium'));
      expect(job.texts()).toContainEqual(
        expect.stringMatching(/2-cilium.*goes on there, following it again in 1 s/),
      );
    },
    LAB_TEST_TIMEOUT_MS,
  );
});

describe('a cancel while a detached playbook runs', () => {
  it(
    'ends the playbook’s whole process group on the ops host, and the job ends cancelled',
    async () => {
      const cancel = new AbortController();
      const job = lab.startJob('cilium dev');
      const { running } = await runCiliumToItsReport(job, 30, cancel.signal);
      expect(await playbookProcesses(lab.repo.ansibleDir)).not.toEqual([]);
      cancel.abort(new Error('cancelled by U0BOB'));
      const result = await running;
      await lab.setLab({});

      expect(result).toMatchObject({ status: 'finished', outcome: 'cancelled' });
      expect(await playbookProcesses(lab.repo.ansibleDir)).toEqual([]);
      // Its runner lived to say how it ended: TERM to the group.
      expect(await readFile(join(folderOf(job.jobFolder, '2-cilium'), 'rc'), 'utf8')).toBe('143\n');
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
