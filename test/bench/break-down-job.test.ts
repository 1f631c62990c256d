import { describe, expect, it } from 'vitest';
import {
  type Breakdown,
  breakDownJob,
  breakDownScript,
  type JobTimeline,
  medianBreakdown,
  PARTS,
  type RemoteCommandTiming,
} from '../../bench/break-down-job.js';

const command = (
  fields: Pick<RemoteCommandTiming, 'endedAt' | 'durationMs' | 'connectMs'> & Partial<RemoteCommandTiming>,
): RemoteCommandTiming => ({ label: 'ops', program: 'ansible-playbook', options: [], ...fields });

const step = (at: number, type: string, stepId?: string) => ({ at, event: { type, stepId } });

/** Two steps, the second behind an approval; times in ms from the command. */
const job: JobTimeline = {
  sentAt: 0,
  endedAt: 1_000,
  commands: [
    // Step 1: a repo read, then the playbook with its --list-tasks beside it.
    command({ endedAt: 60, durationMs: 30, connectMs: 20, program: 'cat' }),
    command({ endedAt: 400, durationMs: 300, connectMs: 50 }),
    command({ endedAt: 450, durationMs: 200, connectMs: 40, options: ['--list-tasks'] }),
    // Step 2: a gate reading a node.
    command({ endedAt: 680, durationMs: 40, connectMs: 30, label: 'k3s-dev-1', program: 'cat' }),
  ],
  events: [
    step(5, 'plan-started'),
    step(10, 'step-started', '1'),
    step(500, 'step-finished', '1'),
    step(520, 'step-waiting', '2'),
    step(530, 'plan-started'),
    step(600, 'step-started', '2'),
    step(700, 'step-finished', '2'),
    step(710, 'plan-finished'),
  ],
  // One call while the plan ran, the last of the final report at 900.
  slackCallsAt: [300, 850, 900],
};

describe('breakDownJob', () => {
  it('gives each millisecond of the job to the first part happening then, and the parts add up to the job', () => {
    const parts = breakDownJob(job);
    expect(parts).toEqual({
      start: 10,
      // cat's [30, 50], the playbook's [100, 150], the node read's [640, 670]; the preview's is under the playbook.
      sshConnect: 20 + 50 + 30,
      repoReads: 10,
      playbooks: 250,
      // Only past the playbook's end: while both ran, the time is the playbook's.
      previews: 50,
      nodeCommands: 10,
      inSteps: 490 - 30 - 350 + (100 - 40),
      approval: 80,
      betweenSteps: 20 + 10,
      finalReport: 190,
      end: 100,
    });
    expect(PARTS.reduce((sum, part) => sum + parts[part], 0)).toBe(1_000);
  });

  it('counts nothing outside the job, and no final report when Slack was not called after the plan', () => {
    const parts = breakDownJob({
      ...job,
      commands: [...job.commands, command({ endedAt: 1_500, durationMs: 400, connectMs: 10 })],
      slackCallsAt: [300],
    });
    expect(parts.finalReport).toBe(0);
    expect(parts.end).toBe(290);
    expect(parts.playbooks).toBe(250);
    expect(PARTS.reduce((sum, part) => sum + parts[part], 0)).toBe(1_000);
  });
});

describe('medianBreakdown', () => {
  it('takes each part median on its own, in whole ms', () => {
    const jobs = [10, 30, 20].map(
      (ms, i) =>
        Object.fromEntries(PARTS.map((part) => [part, part === 'playbooks' ? ms + 0.4 : i])) as Breakdown,
    );
    const medians = medianBreakdown(jobs);
    expect(medians.playbooks).toBe(20);
    expect(medians.previews).toBe(1);
  });
});

describe('breakDownScript', () => {
  it('sums the lines that change things and those that only look', () => {
    const cd = 'cd -- /repo/infra/ansible && env ANSIBLE_NOCOLOR=1 ansible-playbook playbooks/k3s.yml';
    expect(
      breakDownScript([
        { line: `${cd} --list-hosts`, ms: 600 },
        { line: `${cd} --list-tasks`, ms: 700 },
        { line: cd, ms: 3_000 },
        { line: `${cd} --check --diff`, ms: 1_500 },
        { line: `${cd} --limit k3s-dev-3`, ms: 900 },
      ]),
    ).toEqual({ playbooks: 3_900, previews: 2_800 });
  });
});
