import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createSlackDriver, type SlackDriver } from '../test/lab/fake-slack/index.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../test/support/start-slack-lab.js';
import { type BenchLab, startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { runLanes } from './run-lanes.js';
import { startBareBolt } from './start-bare-bolt.js';
import { percentile, round } from './stats.js';

const COMMANDS = 200;
const IN_FLIGHT = 20;
/** Bot and bare Bolt take turns, COMMANDS / ROUNDS each, so the machine's load falls on both alike. */
const ROUNDS = 5;
/**
 * `/cluster help` sent before measuring: the first tens of requests after a start pay for compiling
 * the request path (and Node loading fetch), a one-off a running bot has long paid. Help creates no
 * job, so the warm-up leaves no Slack traffic behind.
 */
const WARM_UP_COMMANDS = 60;
/** "lab stream line N from k3s-dev-1: the quick brown fox…" is about 83 bytes: 100k lines. */
const STREAM_LINES = 100_000;
const STREAM_MB = (STREAM_LINES * 83) / 2 ** 20;

export interface AckFigures {
  readonly ack: {
    p50: number;
    p99: number;
    n: number;
    /** p99 of a bare Bolt app acking the same requests in the same run (bench/bare-bolt-app.mjs). */
    bareBoltP99: number;
    ratioToBareBolt: number;
  };
  readonly ackBurst: { max: number; p99: number; n: number; over3s: number };
}

/**
 * Signed `/cluster verify dev` to the HTTP receiver: 200 at 20 in flight, alternated in rounds with
 * the same requests to a bare Bolt app, then (in a fresh lab, so the first 200 jobs' Slack traffic
 * is not still queued) 200 at once.
 */
export async function measureAcks(redis: BenchRedis): Promise<AckFigures> {
  const { bot, bare } = await withLab(redis, pacedBesideBareBolt);
  const burst = await withLab(redis, (lab) =>
    Promise.all(Array.from({ length: COMMANDS }, () => acked(lab))),
  );
  const botP99 = percentile(bot, 99);
  const bareP99 = percentile(bare, 99);
  return {
    ack: {
      p50: round(percentile(bot, 50)),
      p99: round(botP99),
      n: bot.length,
      bareBoltP99: round(bareP99),
      ratioToBareBolt: round(botP99 / bareP99, 2),
    },
    ackBurst: {
      max: round(Math.max(...burst)),
      p99: round(percentile(burst, 99)),
      n: burst.length,
      over3s: burst.filter((latency) => latency >= 3_000).length,
    },
  };
}

async function pacedBesideBareBolt(lab: BenchLab): Promise<{ bot: number[]; bare: number[] }> {
  const bareBolt = await startBareBolt(lab.slack, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET });
  try {
    const driver = createSlackDriver({
      slack: lab.slack,
      eventsUrl: bareBolt.eventsUrl,
      signingSecret: SIGNING_SECRET,
    });
    await runLanes(WARM_UP_COMMANDS, IN_FLIGHT, () => ackedBy(driver, 'help'));
    const bot: number[] = [];
    const bare: number[] = [];
    for (let turn = 0; turn < ROUNDS; turn++) {
      bot.push(...(await runLanes(COMMANDS / ROUNDS, IN_FLIGHT, () => acked(lab))));
      bare.push(...(await runLanes(COMMANDS / ROUNDS, IN_FLIGHT, () => ackedBy(driver, 'verify dev'))));
    }
    return { bot, bare };
  } finally {
    await bareBolt.stop();
  }
}

async function withLab<T>(redis: BenchRedis, measure: (lab: BenchLab) => Promise<T>): Promise<T> {
  const lab = await startBenchLab({ redis });
  try {
    await lab.warmUp();
    await runLanes(WARM_UP_COMMANDS, IN_FLIGHT, () => acked(lab, 'help'));
    return await measure(lab);
  } finally {
    await lab.stop();
  }
}

/**
 * 20 in flight for as long as the worker streams a 100k-line playbook (`packages k3s-dev-1`, whose
 * one play streams the lines through ansible's display).
 */
export async function measureAckUnderLoad(redis: BenchRedis): Promise<{
  ackUnderLoad: { p99: number; p50: number; n: number; streamedLines: number; streamSeconds: number };
}> {
  const lab = await startBenchLab({ redis, labVars: { lab_stream_mb: STREAM_MB } });
  try {
    await lab.warmUp();
    await runLanes(WARM_UP_COMMANDS, IN_FLIGHT, () => acked(lab, 'help'));
    const jobId = await lab.jobIdOf(await lab.command('packages k3s-dev-1'));
    const logPath = join(lab.processEnv.DATA_DIR!, 'jobs', `${jobId}.log`);
    await lab.slack.waitFor(() => stat(logPath).then((file) => file.size > 64 * 1024), {
      timeoutMs: 120_000,
      intervalMs: 5,
      description: 'the playbook output to start streaming',
    });
    const streamStart = Date.now();
    let streaming = true;
    const outcome = lab.outcome(jobId).then((entry) => {
      streaming = false;
      return entry;
    });
    const latencies: number[] = [];
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (streaming) latencies.push(await acked(lab));
      }),
    );
    const streamSeconds = ((await outcome).at - streamStart) / 1000;
    const streamedLines = (await readFile(logPath, 'utf8')).match(/lab stream line /g)?.length ?? 0;
    return {
      ackUnderLoad: {
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        n: latencies.length,
        streamedLines,
        streamSeconds: round(streamSeconds),
      },
    };
  } finally {
    await lab.stop();
  }
}

const acked = (lab: BenchLab, text = 'verify dev') => ackedBy(lab.driver, text, 'the bot');

/** The signed request `lab.command` sends, to the bot or (another driver) to the bare Bolt app. */
async function ackedBy(driver: SlackDriver, text: string, receiver = 'the bare Bolt app'): Promise<number> {
  const response = await driver.slash(text, { userId: 'U0ALICE', channelId: 'C0OPS' });
  if (response.status !== 200)
    throw new Error(`${receiver}'s ack was HTTP ${response.status}: ${response.body}`);
  return response.latencyMs;
}
