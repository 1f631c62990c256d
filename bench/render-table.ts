import type { BenchResult } from './bench-result.js';
import { type Breakdown, PARTS, type Part } from './break-down-job.js';
import { fleetRows } from './fleet-rows.js';
import type { JobPageFigures } from './measure-job-page.js';
import type { PageStreamFigures } from './measure-page-streams.js';

export interface Row {
  readonly figure: string;
  readonly measured: string;
  readonly target: string;
  /** Undefined for a figure reported without a target. */
  readonly met: boolean | undefined;
}

const ms = (value: number) => `${value} ms`;
const mark = (met: boolean | undefined) => (met === undefined ? '—' : met ? '✅' : '❌ missed');
const REDIS = { single: 'single Redis', cluster: 'Redis Cluster (3 masters on loopback)' } as const;

/** Each figure the run produced, what it measured and whether it met the target, section by section. */
export function benchRows(result: BenchResult): Row[] {
  return [
    ...ackRows(result),
    ...threadRows(result),
    ...overheadRows(result),
    ...recoveryRows(result),
    ...memoryRows(result),
    ...throughputRows(result),
    ...jobPageRows(result),
    ...redactionRows(result),
    ...approvalRows(result),
    ...(result.fleet ? fleetRows({ fleet: result.fleet }) : []),
    ...failedRows(result),
  ];
}

/** The acks: alone, beside a bare Bolt app, in a burst, under a streaming job. */
function ackRows({ ack, ackBurst, ackUnderLoad }: BenchResult): Row[] {
  return [
    ...(ack
      ? [
          {
            figure: `ack latency (${ack.n} signed \`/cluster verify dev\`, 20 in flight)`,
            measured: `p50 ${ms(ack.p50)}, p99 ${ms(ack.p99)}`,
            target: 'p99 < 100 ms',
            met: ack.p99 < 100,
          },
        ]
      : []),
    ...(ack
      ? [
          {
            figure: `ack beside a bare Bolt app (the same ${ack.n} requests to each, 20 in flight, alternated in rounds)`,
            measured: `p99 ${ms(ack.p99)} vs bare Bolt ${ms(ack.bareBoltP99)}: ratio ${ack.ratioToBareBolt}`,
            target: 'p99 ≤ 1.5 × bare Bolt, and < 100 ms at 20 in flight',
            met: ack.ratioToBareBolt <= 1.5 && ack.p99 < 100,
          },
        ]
      : []),
    ...(ackBurst
      ? [
          {
            figure: `ack burst (${ackBurst.n} sent at once)`,
            measured: `max ${ms(ackBurst.max)}, p99 ${ms(ackBurst.p99)}, ${ackBurst.over3s} over 3 s`,
            target: 'every ack < 3 s, p99 < 1 s',
            met: ackBurst.max < 3_000 && ackBurst.p99 < 1_000,
          },
          {
            figure:
              'ack burst beside a bare Bolt app (the same 200 at once to it just before and just after the bot)',
            measured: `max ${ms(ackBurst.max)} vs bare Bolt ${ms(ackBurst.bareBoltMax)}: ratio ${ackBurst.ratioToBareBolt}`,
            target: 'max ≤ 1.5 × bare Bolt',
            met: ackBurst.ratioToBareBolt <= 1.5,
          },
        ]
      : []),
    ...(ackUnderLoad
      ? [
          {
            figure: `ack under load (${ackUnderLoad.n} acks while the worker streamed ${ackUnderLoad.streamedLines} lines in ${ackUnderLoad.streamSeconds} s)`,
            measured: `p50 ${ms(ackUnderLoad.p50)}, p99 ${ms(ackUnderLoad.p99)}`,
            target: 'p99 < 150 ms',
            met: ackUnderLoad.p99 < 150,
          },
          {
            figure: `ack under load beside a bare Bolt app (${ackUnderLoad.bareBoltN} of the same requests to it, turns of 100 while the playbook streamed)`,
            measured: `p99 ${ms(ackUnderLoad.p99)} vs bare Bolt ${ms(ackUnderLoad.bareBoltP99)}: ratio ${ackUnderLoad.ratioToBareBolt}`,
            target: 'p99 ≤ 1.5 × bare Bolt',
            met: ackUnderLoad.ratioToBareBolt <= 1.5,
          },
          {
            figure:
              "where the bot process's time went meanwhile (V8's profiler over the window, busy time by place, ms)",
            measured: ackUnderLoad.botProfile.map(({ where, ms: spent }) => `${where} ${spent}`).join(', '),
            target: 'reported',
            met: undefined,
          },
        ]
      : []),
  ];
}

/** What reaches Slack: a job's first post, a failed gate's alert, one job's calls. */
function threadRows({ firstPost, verifyAlert, slack }: BenchResult): Row[] {
  return [
    ...(firstPost
      ? [
          {
            figure: `command → first thread post (${firstPost.n} jobs, one command every 3 s)`,
            measured: `p50 ${ms(firstPost.p50)}, p99 ${ms(firstPost.p99)}`,
            target: 'p50 < 300 ms',
            met: firstPost.p50 < 300,
          },
        ]
      : []),
    ...(verifyAlert
      ? [
          {
            figure: `\`/cluster verify dev\` with a node NotReady → its alert in the alerts channel (${verifyAlert.n} commands)`,
            measured: `p50 ${ms(verifyAlert.p50)}, max ${ms(verifyAlert.max)}`,
            target: 'every alert < 15 s',
            met: verifyAlert.max < 15_000,
          },
        ]
      : []),
    ...(slack
      ? [
          {
            figure: `Slack calls, one \`up dev\` printing ${slack.outputLines} lines (${slack.steps} steps, ${slack.runtimeSeconds} s)`,
            measured: `${slack.total} calls (${Object.entries(slack.calls)
              .sort(([, a], [, b]) => b - a)
              .map(([method, count]) => `${method} ${count}`)
              .join(', ')}), ${slack.rateLimited} × 429`,
            target: `≤ ${slack.budget} (3 per step + 1 per 2 s), zero 429s`,
            met: slack.total <= slack.budget && slack.rateLimited === 0,
          },
        ]
      : []),
  ];
}

/** The bot beside the same playbooks in a shell script, and where its time went. */
function overheadRows({ overhead }: BenchResult): Row[] {
  if (!overhead) return [];
  return [
    {
      figure: `orchestration overhead (\`up dev\` by the bot vs its ${overhead.playbookRuns} playbook lines in a shell script, ${overhead.pairs} pairs)`,
      measured: `ratio ${overhead.ratio} (${overhead.botSeconds} s vs ${overhead.scriptSeconds} s, medians; pairs from ${overhead.ratioMin} to ${overhead.ratioMax})`,
      target: 'ratio ≤ 1.02',
      met: overhead.ratio <= 1.02,
    },
    {
      figure: `where a bot \`up dev\` spent its time (ms per job, each part's median over the pairs; ${overhead.remoteCommands} remote commands)`,
      measured: `${describeBreakdown(overhead.breakdown)}; the script: playbooks ${overhead.scriptBreakdown.playbooks}, previews ${overhead.scriptBreakdown.previews}`,
      target: 'reported',
      met: undefined,
    },
    {
      figure: `SSH connections per bot \`up dev\` (overhead.sshConnections; ${overhead.remoteCommands} remote commands as channels on them)`,
      measured: `${overhead.sshConnections} connections, ${ms(overhead.sshConnectMs)} connecting in all (medians)`,
      target: `≤ one per host each run touches (${overhead.sshConnectionsTarget})`,
      met: overhead.sshConnections <= overhead.sshConnectionsTarget,
    },
  ];
}

/** How long a restore and an upgrade of the lab's three servers take, and who spent it. */
function recoveryRows({ recovery }: BenchResult): Row[] {
  if (!recovery) return [];
  return [
    {
      figure: `\`restore dev <snapshot>\` of three servers (recovery.restoreMs; ${recovery.remoteCommands} remote commands)`,
      measured: `${ms(recovery.restoreMs)}: remote commands ${ms(recovery.remoteMs)}, the bot (its work and its waits on the API) ${ms(recovery.botMs)}`,
      target: 'reported',
      met: undefined,
    },
    {
      figure: `\`upgrade dev\` of three servers one at a time (recovery.upgradeMs; ${recovery.upgradeRemoteCommands} remote commands)`,
      measured: `${ms(recovery.upgradeMs)}: remote commands ${ms(recovery.upgradeRemoteMs)}, the bot (its work, drains and waits on the API) ${ms(recovery.upgradeBotMs)}`,
      target: 'reported',
      met: undefined,
    },
  ];
}

/** The worker's peak RSS while a job streams. */
function memoryRows({ memory }: BenchResult): Row[] {
  if (!memory) return [];
  return [
    {
      figure: `worker peak RSS while one job streams ${memory.streamedMb} MB, then ${memory.streamedMbDoubled} MB`,
      measured: `${memory.peakRssMb} MB, then ${memory.peakRssMbDoubled} MB (${memory.warmRssMb} MB before; ${memory.mbPerSecond} MB/s)`,
      target: '< 200 MB, flat when the output doubles (within 10 %)',
      met:
        memory.peakRssMb < 200 &&
        memory.peakRssMbDoubled < 200 &&
        memory.peakRssMbDoubled <= memory.peakRssMb * 1.1,
    },
  ];
}

/** A verify job's worker CPU: 24 clusters verified every minute then take 10 ms a second, a tenth of a worker's 100m request (deploy/base). */
const CPU_MS_PER_JOB_TARGET = 25;
const DELIVERY_ROUND_TRIPS_TARGET = 10;

/** What the job layer costs the worker per job: CPU (and where it goes), Redis round trips. */
function throughputRows({ throughput }: BenchResult): Row[] {
  if (!throughput) return [];
  const places = throughput.workerCpuProfile.map(({ where, msPerJob }) => `${where} ${msPerJob}`);
  return [
    {
      figure: `worker CPU per \`verify dev\` job, its run and its thread's delivery (in-memory cluster, Slack stubbed, concurrency 4, ${throughput.jobs} jobs × ${throughput.rounds} rounds)`,
      measured: `${throughput.workerCpuMsPerJob} ms (${throughput.jobsPerSec} jobs/s)`,
      target: `≤ ${CPU_MS_PER_JOB_TARGET} ms (24 clusters verified every minute: ≤ 10 % of a worker's 100m CPU request)`,
      met: throughput.workerCpuMsPerJob <= CPU_MS_PER_JOB_TARGET,
    },
    {
      figure:
        "where that CPU goes (one more round under V8's profiler, its CPU split in the samples' shares; ms per job)",
      measured: places.join(', '),
      target: 'reported',
      met: undefined,
    },
    {
      figure:
        'Redis round trips per job (enqueue → completed; a command or a pipeline/MULTI counts one), then its thread delivered',
      measured: `${throughput.redisRoundTripsPerJob}; the thread's delivery (any process's outbox drainer) ${throughput.deliveryRoundTripsPerJob} more`,
      target: `delivery ≤ ${DELIVERY_ROUND_TRIPS_TARGET}`,
      met: throughput.deliveryRoundTripsPerJob <= DELIVERY_ROUND_TRIPS_TARGET,
    },
  ];
}

/** The job page: a streamed line reaching an open page, a long ended job opened. */
function jobPageRows({ jobPage }: BenchResult): Row[] {
  if (!jobPage) return [];
  return [
    ...(hasLatency(jobPage) ? jobPageLatencyRows(jobPage) : []),
    ...(hasStreams(jobPage) ? pageStreamRows(jobPage) : []),
  ];
}

type JobPageResult = NonNullable<BenchResult['jobPage']>;
const hasLatency = (jobPage: JobPageResult): jobPage is JobPageFigures['jobPage'] =>
  jobPage.p99 !== undefined;
const hasStreams = (jobPage: JobPageResult): jobPage is PageStreamFigures['jobPage'] =>
  jobPage.streamsPeakRssMb !== undefined;

/** 500 readers of one 100k-line job's page log that read nothing: what the bot holds, and whether it still answers. */
function pageStreamRows(jobPage: PageStreamFigures['jobPage']): Row[] {
  return [
    {
      figure: `bot's peak RSS with ${jobPage.streamsOpen} paused log streams of a 100k-line job open (${jobPage.streamsWarmRssMb} MB before)`,
      measured: `${jobPage.streamsPeakRssMb} MB`,
      target: '< 256 MB (the pod limit)',
      met: jobPage.streamsPeakRssMb < 256,
    },
    {
      figure: `/healthz and acks (${jobPage.streamsAckN}) while those streams are open`,
      measured: `/healthz p99 ${ms(jobPage.streamsHealthzP99)}, ack p99 ${ms(jobPage.streamsAckP99)}`,
      target: 'ack p99 < 150 ms',
      met: jobPage.streamsAckP99 < 150,
    },
  ];
}

function jobPageLatencyRows(jobPage: JobPageFigures['jobPage']): Row[] {
  return [
    {
      figure: `line printed → visible on an open job page (${jobPage.n} probes while ${jobPage.lines} lines streamed in ${jobPage.seconds} s; ${jobPage.domElements} DOM elements at the end)`,
      measured: `p50 ${ms(jobPage.p50)}, p99 ${ms(jobPage.p99)}`,
      target: 'p99 < 1 s',
      met: jobPage.p99 < 1_000,
    },
    {
      figure: `that ended job's page opened afresh → scrolled to the end, its last line shown (${jobPage.lines} lines)`,
      measured: ms(jobPage.openMs),
      target: '< 2 s',
      met: jobPage.openMs < 2_000,
    },
  ];
}

/** Redaction of one 64 KiB line: ordinary output beside lines built to stall each pattern, and its growth. */
function redactionRows({ redaction }: BenchResult): Row[] {
  if (!redaction) return [];
  const lines = Object.keys(redaction.adversarialMs).length;
  return [
    {
      figure: `redacting one ${redaction.lineChars}-character line: plain output vs ${lines} adversarial lines (timed in alternating pairs, ${redaction.rounds} rounds after a warm-up; median of the pairs' ratios)`,
      measured: `plain ${ms(redaction.plainMs)}, slowest \`${redaction.worst}\` ${ms(redaction.adversarialMs[redaction.worst]!)}: ratio ${redaction.adversarialRatio} (of the fastest rounds: ${redaction.adversarialRatioOfMinimums})`,
      target: 'ratio ≤ 2',
      met: redaction.adversarialRatio <= 2,
    },
    {
      figure: `redaction time at ${redaction.sizes.at(-1)} over ${redaction.sizes[0]} characters (8×), fastest rounds, worst of plain and the ${lines} lines`,
      measured: `${redaction.worstGrowth}×`,
      // Linear is 8× at most (less with a fixed cost per line); quadratic would be 64×. The margin is
      // for the noise of timing an 8 KiB line.
      target: 'linear: ≤ 12× (quadratic 64×)',
      met: redaction.worstGrowth <= 12,
    },
  ];
}

/** From an approval click to the approved step running. */
function approvalRows({ approvalResume }: BenchResult): Row[] {
  if (!approvalResume) return [];
  return [
    {
      figure: `approval resume (click → next step started, ${approvalResume.n} clicks)`,
      measured: `p50 ${ms(approvalResume.p50)}`,
      target: 'p50 < 250 ms',
      met: approvalResume.p50 < 250,
    },
  ];
}

/** A section that did not finish, with what it was waiting for. */
function failedRows({ failed }: BenchResult): Row[] {
  return Object.entries(failed ?? {}).map(([section, reason]) => ({
    figure: `section \`${section}\``,
    measured: `did not finish: ${reason}`,
    target: 'finishes',
    met: false,
  }));
}

const PART_NAMES: Record<Part, string> = {
  playbooks: 'playbooks',
  previews: 'previews (--list-hosts/--list-tasks/--syntax-check/--check)',
  repoReads: 'other commands on the ops host (repo reads, ansible --version, the toolchain)',
  nodeCommands: 'commands on nodes',
  sshConnect: 'SSH connecting',
  approval: 'approvals',
  finalReport: 'final report to Slack',
  start: 'queue and start',
  end: 'rest after the plan',
  inSteps: 'rest in steps',
  betweenSteps: 'between steps',
};

/** Each part with its name, largest first. */
function describeBreakdown(breakdown: Breakdown): string {
  return PARTS.map((part) => [PART_NAMES[part], breakdown[part]] as const)
    .sort(([, a], [, b]) => b - a)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}

/** The Markdown table docs/benchmark.md carries ("Latest run"), with the machine it ran on. */
export function renderTable(result: BenchResult): string {
  const { machine } = result;
  return [
    '| figure | measured | target | |',
    '|---|---|---|---|',
    ...benchRows(result).map(
      (row) => `| ${row.figure} | ${row.measured} | ${row.target} | ${mark(row.met)} |`,
    ),
    '',
    `Machine: ${machine.cpus} × ${machine.model}, ${machine.memoryGb} GB, Node ${machine.node}; ${REDIS[machine.redis]}; ${machine.at}.`,
  ].join('\n');
}
