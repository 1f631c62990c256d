/**
 * `npm run bench`: measures the bot against the lab (real process, real Redis, fake Slack, kube-sim).
 * Reports; never fails. So far: ack latency of signed slash commands, 20 in flight (issue 7 adds more).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlackDriver, startFakeSlack } from '../test/lab/fake-slack/index.js';
import { startKubeSim } from '../test/lab/kube-sim/start-kube-sim.js';
import { uniquePrefix } from '../test/support/redis-prefix.js';
import { startBotProcess } from '../test/support/start-bot-process.js';
import { writeLabConfig } from '../test/support/write-lab-config.js';

const TOKEN = 'xoxb-bench-0000-1111';
const SECRET = 'bench-signing-secret-000000';
const REQUESTS = 200;
const IN_FLIGHT = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cb-bench-'));
  const sim = await startKubeSim();
  await sim.writeKubeconfig(join(dir, 'dev.kubeconfig'));
  const slack = await startFakeSlack({
    botToken: TOKEN,
    channels: ['C0OPS', 'C0ALERTS'],
    rateLimitsEnabled: false,
  });
  const redis = uniquePrefix('bench');
  const bot = await startBotProcess({
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    REDIS_PREFIX: redis.prefix,
    CLUSTER_BOT_CONFIG: await writeLabConfig({ dir, kubeconfigPath: join(dir, 'dev.kubeconfig') }),
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
  });
  const driver = createSlackDriver({ slack, eventsUrl: bot.eventsUrl, signingSecret: SECRET });
  try {
    const latencies: number[] = [];
    let next = 0;
    const lane = async () => {
      while (next < REQUESTS) {
        next++;
        const response = await driver.slash('help', { userId: 'U0ALICE', channelId: 'C0OPS' });
        if (response.status === 200) latencies.push(response.latencyMs);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    latencies.sort((a, b) => a - b);
    const result = {
      ack: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), n: latencies.length },
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    };
    if (process.argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      process.stdout.write(
        [
          '| figure | value | target |',
          '|---|---|---|',
          `| ack latency p50 (${REQUESTS} signed /cluster help, ${IN_FLIGHT} in flight) | ${result.ack.p50.toFixed(1)} ms | |`,
          `| ack latency p99 | ${result.ack.p99.toFixed(1)} ms | < 100 ms |`,
          `machine: ${result.machine.cpus} × ${result.machine.model}, Node ${result.machine.node}`,
        ].join('\n'),
      );
      process.stdout.write('\n');
    }
  } finally {
    await bot.stop();
    await slack.close();
    await sim.close();
    await redis.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
