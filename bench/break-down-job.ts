import { median, round } from './stats.js';

/** One remote command as the worker logged it when it ended ("remote command ended", debug level). */
export interface RemoteCommandTiming {
  /** Epoch ms. */
  readonly endedAt: number;
  /** From asking for the connection to the command's end; connectMs of it went to the connection. */
  readonly durationMs: number;
  readonly connectMs: number;
  /** "ops", or the node it ran on. */
  readonly label: string;
  readonly program: string;
  readonly options: readonly string[];
}

/** One entry of the job page's event feed: a lifecycle event and when the worker emitted it. */
export interface TimedEvent {
  readonly at: number;
  readonly event: { readonly type: string; readonly stepId?: string };
}

/** What one bot-driven job left behind, from the command leaving the driver to the outcome's log line. */
export interface JobTimeline {
  readonly sentAt: number;
  readonly endedAt: number;
  readonly commands: readonly RemoteCommandTiming[];
  readonly events: readonly TimedEvent[];
  /** When each of the job's Slack calls reached Slack. */
  readonly slackCallsAt: readonly number[];
}

/**
 * Where a job's wall time went, each millisecond counted once, by the first of these that was
 * happening then: an ansible-playbook run that changes things; one that only looks (the bot's
 * `--list-hosts`/`--list-tasks`/`--syntax-check`/`--check` runs); another command on the ops host
 * (reading the repo: cat, git; Ansible's version and toolchain); a command on a node (the verify gates' reads); an SSH connection
 * being set up; an approval (from the step asking to its resumed start: parking, the buttons, the
 * click, the resume); after the plan finished, the final report reaching Slack; the queue and the
 * run's opening before the first step; the rest after the plan finished; the rest inside a step
 * (the engine, Kubernetes gates and watches); the rest between steps (checkpoints, events).
 */
export const PARTS = [
  'playbooks',
  'previews',
  'repoReads',
  'nodeCommands',
  'sshConnect',
  'approval',
  'finalReport',
  'start',
  'end',
  'inSteps',
  'betweenSteps',
] as const;

export type Part = (typeof PARTS)[number];
export type Breakdown = Record<Part, number>;

const PREVIEW_FLAGS = new Set(['--list-hosts', '--list-tasks', '--syntax-check', '--check']);

/** An ansible-playbook run that changes nothing: it lists, checks syntax or dry-runs. */
export const isPreview = (options: readonly string[]): boolean =>
  options.some((option) => PREVIEW_FLAGS.has(option));

interface Interval {
  readonly part: Part;
  readonly from: number;
  readonly to: number;
}

/** Milliseconds of the job per part; they add up to the job's wall time. */
export function breakDownJob(job: JobTimeline): Breakdown {
  const intervals = [...commandIntervals(job.commands), ...eventIntervals(job)];
  const cuts = [...new Set([job.sentAt, job.endedAt, ...intervals.flatMap((one) => [one.from, one.to])])]
    .filter((at) => at >= job.sentAt && at <= job.endedAt)
    .sort((a, b) => a - b);
  const parts = Object.fromEntries(PARTS.map((part) => [part, 0])) as Breakdown;
  for (let i = 1; i < cuts.length; i++) {
    const [from, to] = [cuts[i - 1]!, cuts[i]!];
    const covering = intervals.filter((one) => one.from <= from && one.to >= to).map((one) => one.part);
    const part = PARTS.find((candidate) => covering.includes(candidate)) ?? 'betweenSteps';
    parts[part] += to - from;
  }
  return parts;
}

function commandIntervals(commands: readonly RemoteCommandTiming[]): Interval[] {
  return commands.flatMap((command) => {
    const startedAt = command.endedAt - command.durationMs;
    const connected = startedAt + command.connectMs;
    return [
      { part: 'sshConnect', from: startedAt, to: connected },
      { part: partOf(command), from: connected, to: command.endedAt },
    ];
  });
}

/** A detached playbook's start and follow are logged as ansible-playbook itself: they are its run. */
function partOf(command: RemoteCommandTiming): Part {
  if (command.label !== 'ops') return 'nodeCommands';
  if (command.program !== 'ansible-playbook') return 'repoReads';
  return isPreview(command.options) ? 'previews' : 'playbooks';
}

function eventIntervals(job: JobTimeline): Interval[] {
  const intervals: Interval[] = [];
  const { events } = job;
  const nextStart = (stepId: string | undefined, after: number) =>
    events.find(
      (entry, i) => i > after && entry.event.type === 'step-started' && entry.event.stepId === stepId,
    );
  events.forEach((entry, i) => {
    const { type, stepId } = entry.event;
    if (type === 'step-started') {
      const finished = events.find(
        (later, j) => j > i && later.event.type === 'step-finished' && later.event.stepId === stepId,
      );
      if (finished) intervals.push({ part: 'inSteps', from: entry.at, to: finished.at });
    }
    if (type === 'step-waiting') {
      const resumed = nextStart(stepId, i);
      if (resumed) intervals.push({ part: 'approval', from: entry.at, to: resumed.at });
    }
    if (type === 'plan-finished') {
      intervals.push({ part: 'end', from: entry.at, to: job.endedAt });
      const lastCall = Math.max(...job.slackCallsAt.filter((at) => at > entry.at && at <= job.endedAt));
      if (Number.isFinite(lastCall)) intervals.push({ part: 'finalReport', from: entry.at, to: lastCall });
    }
  });
  const firstStep = events.find((entry) => entry.event.type === 'step-started');
  if (firstStep) intervals.push({ part: 'start', from: job.sentAt, to: firstStep.at });
  return intervals;
}

/** The median of each part over several jobs, in whole ms (medians of parts need not add up to the median job). */
export function medianBreakdown(jobs: readonly Breakdown[]): Breakdown {
  return Object.fromEntries(
    PARTS.map((part) => [part, round(median(jobs.map((job) => job[part])), 0)]),
  ) as Breakdown;
}

/** A line of the by-hand script and how long it took, its ssh start-up included. */
export interface ScriptLineTiming {
  readonly line: string;
  readonly ms: number;
}

/** The script's time in the playbook runs that change things and in those that only look, one after another. */
export function breakDownScript(lines: readonly ScriptLineTiming[]): { playbooks: number; previews: number } {
  const sum = (preview: boolean) =>
    lines
      .filter((one) => isPreview(one.line.split(/\s+/)) === preview)
      .reduce((total, one) => total + one.ms, 0);
  return { playbooks: sum(false), previews: sum(true) };
}
