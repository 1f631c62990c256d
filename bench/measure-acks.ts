import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createSlackDriver, type SlackDriver } from '../test/lab/fake-slack/index.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../test/support/start-slack-lab.js';
import { type BenchLab, startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { profileCpuOf } from './profile-cpu.js';
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
  readonly ackBurst: {
    max: number;
    p99: number;
    n: number;
    over3s: number;
    /** The bare Bolt app's max in a burst of the same 200, sent just before and just after the bot's: their mean. */
    bareBoltMax: number;
    /** The bot's max / bareBoltMax: a loaded machine slows both, the bot's own cost shows here. */
    ratioToBareBolt: number;
  };
}

/** Where the bot process's CPU went while it acked under load (profile-cpu.ts says what a place is). */
export interface AckProfilePlace {
  readonly where: string;
  readonly ms: number;
}

/**
 * Signed `/cluster verify dev` to the HTTP receiver: 200 at 20 in flight, alternated in rounds with
 * the same requests to a bare Bolt app, then (in a fresh lab, so the first 200 jobs' Slack traffic
 * is not still queued) 200 at once, between two bursts of the same to the bare Bolt app.
 */
export async function measureAcks(redis: BenchRedis): Promise<AckFigures> {
  const { bot, bare } = await withLab(redis, (lab) =>
    besideBareBolt(lab, async (driver) => {
      const bot: number[] = [];
      const bare: number[] = [];
      for (let turn = 0; turn < ROUNDS; turn++) {
        bot.push(...(await runLanes(COMMANDS / ROUNDS, IN_FLIGHT, () => acked(lab))));
        bare.push(...(await runLanes(COMMANDS / ROUNDS, IN_FLIGHT, () => ackedBy(driver, 'verify dev'))));
      }
      return { bot, bare };
    }),
  );
  // The bot's burst between two of the bare app's, so a neighbour's load that comes or goes meets both.
  const burst = await withLab(redis, (lab) =>
    besideBareBolt(lab, async (driver) => {
      const before = await atOnce(() => ackedBy(driver, 'verify dev'));
      const bot = await atOnce(() => acked(lab));
      const after = await atOnce(() => ackedBy(driver, 'verify dev'));
      return { bot, bareMax: (Math.max(...before) + Math.max(...after)) / 2 };
    }),
  );
  const botP99 = percentile(bot, 99);
  const bareP99 = percentile(bare, 99);
  const burstMax = Math.max(...burst.bot);
  return {
    ack: {
      p50: round(percentile(bot, 50)),
      p99: round(botP99),
      n: bot.length,
      bareBoltP99: round(bareP99),
      ratioToBareBolt: round(botP99 / bareP99, 2),
    },
    ackBurst: {
      max: round(burstMax),
      p99: round(percentile(burst.bot, 99)),
      n: burst.bot.length,
      over3s: burst.bot.filter((latency) => latency >= 3_000).length,
      bareBoltMax: round(burst.bareMax),
      ratioToBareBolt: round(burstMax / burst.bareMax, 2),
    },
  };
}

const atOnce = (ack: () => Promise<number>) => Promise.all(Array.from({ length: COMMANDS }, ack));

/** Runs `measure` with a warmed-up bare Bolt app beside the lab's bot, `driver` signing requests to it. */
async function besideBareBolt<T>(lab: BenchLab, measure: (driver: SlackDriver) => Promise<T>): Promise<T> {
  const bareBolt = await startBareBolt(lab.slack, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET });
  try {
    const driver = createSlackDriver({
      slack: lab.slack,
      eventsUrl: bareBolt.eventsUrl,
      signingSecret: SIGNING_SECRET,
    });
    await runLanes(WARM_UP_COMMANDS, IN_FLIGHT, () => ackedBy(driver, 'help'));
    return await measure(driver);
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

/** Requests sent to one side (bot or bare Bolt) before the other takes its turn, while the playbook streams. */
const UNDER_LOAD_ROUND = 100;
/** Places of the bot's profile shown one by one; the rest are summed. */
const PROFILE_PLACES = 8;

/**
 * 20 in flight for as long as the worker streams a 100k-line playbook (`packages k3s-dev-1`, whose
 * one play streams the lines through ansible's display), in turns of 100 with the same requests to
 * a bare Bolt app, while V8's profiler samples the bot process (the one taking Slack's requests):
 * what in it competes with the acks. The profiler's cost falls on the bot's side alone.
 */
export async function measureAckUnderLoad(redis: BenchRedis): Promise<{
  ackUnderLoad: {
    p99: number;
    p50: number;
    n: number;
    streamedLines: number;
    streamSeconds: number;
    bareBoltP99: number;
    bareBoltN: number;
    ratioToBareBolt: number;
    /** The bot process's busy time over the window by place, most first (sampled wall time, ms). */
    botProfile: AckProfilePlace[];
  };
}> {
  const lab = await startBenchLab({
    redis,
    labVars: { lab_stream_mb: STREAM_MB },
    // The inspector stays closed until the benchmark signals for it; then on a free loopback port.
    env: { NODE_OPTIONS: '--inspect-port=127.0.0.1:0' },
  });
  try {
    await lab.warmUp();
    await runLanes(WARM_UP_COMMANDS, IN_FLIGHT, () => acked(lab, 'help'));
    return await besideBareBolt(lab, async (driver) => {
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
      const bot: number[] = [];
      const bare: number[] = [];
      const { places } = await profileCpuOf(
        lab.bot.child,
        lab.bot.output,
        async () => {
          const whileStreaming = (ack: () => Promise<number>) =>
            runLanes(UNDER_LOAD_ROUND, IN_FLIGHT, () => (streaming ? ack() : Promise.resolve(undefined)));
          while (streaming) {
            bot.push(...numbers(await whileStreaming(() => acked(lab))));
            bare.push(...numbers(await whileStreaming(() => ackedBy(driver, 'verify dev'))));
          }
        },
        'entered',
      );
      const streamSeconds = ((await outcome).at - streamStart) / 1000;
      const streamedLines = (await readFile(logPath, 'utf8')).match(/lab stream line /g)?.length ?? 0;
      const botP99 = percentile(bot, 99);
      const bareP99 = percentile(bare, 99);
      const rest = places.slice(PROFILE_PLACES).reduce((sum, { ms }) => sum + ms, 0);
      return {
        ackUnderLoad: {
          p50: round(percentile(bot, 50)),
          p99: round(botP99),
          n: bot.length,
          streamedLines,
          streamSeconds: round(streamSeconds),
          bareBoltP99: round(bareP99),
          bareBoltN: bare.length,
          ratioToBareBolt: round(botP99 / bareP99, 2),
          botProfile: [
            ...places.slice(0, PROFILE_PLACES).map(({ where, ms }) => ({ where, ms: round(ms) })),
            { where: 'everything else', ms: round(rest) },
          ],
        },
      };
    });
  } finally {
    await lab.stop();
  }
}

const numbers = (values: readonly (number | undefined)[]) =>
  values.filter((value): value is number => value !== undefined);

const acked = (lab: BenchLab, text = 'verify dev') => ackedBy(lab.driver, text, 'the bot');

/** The signed request `lab.command` sends, to the bot or (another driver) to the bare Bolt app. */
async function ackedBy(driver: SlackDriver, text: string, receiver = 'the bare Bolt app'): Promise<number> {
  const response = await driver.slash(text, { userId: 'U0ALICE', channelId: 'C0OPS' });
  if (response.status !== 200)
    throw new Error(`${receiver}'s ack was HTTP ${response.status}: ${response.body}`);
  return response.latencyMs;
}
