import { type DriverResponse, type FakeSlack, findButton } from '../test/lab/fake-slack/index.js';
import type { BotProcess } from '../test/support/start-bot-process.js';
import { type SlackLab, type SlackLabOptions, startSlackLab } from '../test/support/start-slack-lab.js';
import type { BenchRedis } from './bench-redis.js';

/** One line of a bot process's JSON log (pino), with the fields the benchmark reads. */
export interface LogEntry {
  readonly at: number;
  readonly msg: string;
  readonly jobId?: string;
  readonly stepId?: string;
  readonly outcome?: string;
  /** A remote command's, at debug level ("remote command ended"). */
  readonly label?: string;
  readonly program?: string;
  readonly options?: readonly string[];
  readonly connectMs?: number;
  readonly durationMs?: number;
  /** A job run's SSH connections, when its shell closed ("ssh connections closed"): how many, to how many hosts. */
  readonly connections?: number;
  readonly hosts?: number;
}

export interface BenchLab extends SlackLab {
  /** Every log line the bot and worker processes have printed so far, parsed, oldest first. */
  logEntries(): readonly LogEntry[];
  /** Sends a signed slash command as U0ALICE in #ops and returns when Slack got the ack. */
  command(text: string): Promise<DriverResponse & { readonly sentAt: number }>;
  /** The job a command created, from the "Queued as job #N" reply on its response_url. */
  jobIdOf(response: DriverResponse): Promise<string>;
  /** Resolves with the job's outcome log line. */
  outcome(jobId: string, timeoutMs?: number): Promise<LogEntry>;
  /**
   * Runs one `verify dev` to its end, so one-off costs (loading the Kubernetes client, first
   * connections) are paid before anything is measured; returns the worker's pid.
   */
  warmUp(): Promise<number>;
}

/**
 * The lab as deployed: a bot-only process taking Slack requests and a worker process running jobs,
 * both from the compiled `dist/` (run `npm run build` first), against real Redis, sshd and ansible,
 * fake Slack with its rate limits, and kube-sim; on the Redis Cluster when `redis` is one.
 */
export async function startBenchLab(
  options: SlackLabOptions & { readonly redis?: BenchRedis } = {},
): Promise<BenchLab> {
  // Hundreds of commands a minute from one user: the benchmark measures acks, not the per-person limit.
  const lab = await startSlackLab({
    workers: 1,
    built: true,
    ...options,
    env: { COMMANDS_PER_USER_PER_MINUTE: '10000', ...options.redis?.labEnv(), ...options.env },
  });
  const readLog = createLogReader([lab.bot, ...lab.workers]);
  const outcome = async (jobId: string, timeoutMs = OUTCOME_DEADLINE_MS) => {
    try {
      return await lab.slack.waitFor(
        () => readLog().find((entry) => entry.jobId === jobId && entry.outcome),
        {
          timeoutMs,
          intervalMs: 10,
          description: `the outcome of ${jobId}`,
        },
      );
    } catch {
      throw new Error(
        `${jobId} had no outcome after ${timeoutMs / 1000} s: ${whatItWaitsFor(lab.slack, readLog(), jobId)}`,
      );
    }
  };
  const command = async (text: string) => {
    const sentAt = Date.now();
    const response = await lab.driver.slash(text, { userId: 'U0ALICE', channelId: 'C0OPS' });
    return { ...response, sentAt };
  };
  return {
    ...lab,
    logEntries: readLog,
    command,
    jobIdOf: (response) => queuedJobId(lab.slack, response),
    outcome,
    async warmUp() {
      const done = await outcome(await queuedJobId(lab.slack, await command('verify dev')));
      if (done.outcome !== 'succeeded') throw new Error(`warm-up verify dev ${done.outcome}: ${done.msg}`);
      return (lab.workers[0] ?? lab.bot).child.pid!;
    },
  };
}

/** Far beyond any one job of the benchmark (an `up dev` takes about 20 s): a job past it is stuck. */
const OUTCOME_DEADLINE_MS = 180_000;

/** A stuck job's last words and any approval in #ops nobody answered: what a reader needs to look at. */
function whatItWaitsFor(slack: FakeSlack, log: readonly LogEntry[], jobId: string): string {
  const last = log
    .filter((entry) => entry.jobId === jobId)
    .slice(-3)
    .map((entry) => `${entry.msg}${entry.stepId ? ` (${entry.stepId})` : ''}`);
  const open = slack
    .allMessages('C0OPS')
    .filter((message) => findButton(message, { text: 'Approve' }))
    .map((message) => `"${message.text}" (ts ${message.ts})`);
  return [
    `its last log lines: ${last.join('; ') || 'none'}`,
    open.length > 0
      ? `approval messages still showing buttons: ${open.join(', ')}`
      : 'no approval message shows buttons',
  ].join('; ');
}

async function queuedJobId(slack: FakeSlack, response: DriverResponse): Promise<string> {
  const post = await slack.waitFor(
    () =>
      slack.responseUrlPosts.find(
        (candidate) =>
          response.responseUrl.endsWith(`/${candidate.id}`) &&
          /Queued as job #\d+/.test(String(candidate.body.text)),
      ),
    { timeoutMs: 30_000, intervalMs: 5, description: 'the "Queued as job" reply' },
  );
  return `job-${/Queued as job #(\d+)/.exec(String(post.body.text))![1]}`;
}

/** Parses each process's output once, as it grows. */
function createLogReader(processes: readonly BotProcess[]): () => readonly LogEntry[] {
  const offsets = processes.map(() => 0);
  const entries: LogEntry[] = [];
  return () => {
    processes.forEach((process, index) => {
      const fresh = process.output().slice(offsets[index]);
      const end = fresh.lastIndexOf('\n');
      if (end < 0) return;
      offsets[index]! += end + 1;
      for (const line of fresh.slice(0, end).split('\n')) {
        if (!line.startsWith('{')) continue;
        const { time, ...fields } = JSON.parse(line) as { time: string } & Omit<LogEntry, 'at'>;
        entries.push({ ...fields, at: Date.parse(time) });
      }
    });
    return entries;
  };
}
