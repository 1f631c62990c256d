/**
 * `npm run bench [-- --json] [-- --only acks,overhead,redaction] [-- --redis cluster] [-- --fleet-minutes 2]`: measures the bot
 * against the lab (real Redis, sshd and ansible-playbook; fake Slack with its rate limits; kube-sim)
 * and prints a table, or one JSON object (the table then goes to stderr). It reports; it never fails on a missed target.
 * `--redis cluster` runs the sections on a private Redis Cluster (three masters on loopback).
 * `--fleet-minutes N` shortens the fleet section's run (default 10 minutes, as the issue asks).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BenchRedis, type RedisMode, startBenchRedis } from './bench-redis.js';
import type { BenchResult } from './bench-result.js';
import { describeMachine } from './machine.js';
import { measureAcks, measureAckUnderLoad } from './measure-acks.js';
import { measureFirstPost } from './measure-first-post.js';
import { measureFleet } from './measure-fleet.js';
import { measureJobPage } from './measure-job-page.js';
import { measureMemory } from './measure-memory.js';
import { measureOverhead } from './measure-overhead.js';
import { measurePageStreams } from './measure-page-streams.js';
import { measureRecovery } from './measure-recovery.js';
import { measureRedaction } from './measure-redaction.js';
import { measureSlackCalls } from './measure-slack-calls.js';
import { measureThroughput } from './measure-throughput.js';
import { measureVerifyAlert } from './measure-verify-alert.js';
import { renderTable } from './render-table.js';
import { percentile, round } from './stats.js';

type Section = (redis: BenchRedis) => Promise<Partial<BenchResult> & { resumeMs?: readonly number[] }>;

const SECTIONS: Record<string, Section> = {
  acks: measureAcks,
  ackUnderLoad: measureAckUnderLoad,
  firstPost: measureFirstPost,
  verifyAlert: measureVerifyAlert,
  slackCalls: measureSlackCalls,
  overhead: measureOverhead,
  memory: measureMemory,
  throughput: measureThroughput,
  jobPage: measureJobPage,
  pageStreams: measurePageStreams,
  redaction: measureRedaction,
  recovery: () => measureRecovery(),
  fleet: (redis) => measureFleet(redis, chosenFleetMinutes(process.argv.slice(2))),
};

function chosenSections(argv: readonly string[]): string[] {
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (at < 0) return Object.keys(SECTIONS);
  const list = argv[at] === '--only' ? argv[at + 1] : argv[at]!.slice('--only='.length);
  const names = (list ?? '').split(',').filter(Boolean);
  if (names.length === 0 || names.some((name) => !(name in SECTIONS))) {
    process.stderr.write(`bench: --only takes a list of ${Object.keys(SECTIONS).join(', ')}\n`);
    process.exit(2);
  }
  return names;
}

function chosenRedis(argv: readonly string[]): RedisMode {
  const at = argv.findIndex((arg) => arg === '--redis' || arg.startsWith('--redis='));
  if (at < 0) return 'single';
  const mode = argv[at] === '--redis' ? argv[at + 1] : argv[at]!.slice('--redis='.length);
  if (mode !== 'single' && mode !== 'cluster') {
    process.stderr.write('bench: --redis takes single or cluster\n');
    process.exit(2);
  }
  return mode;
}

function chosenFleetMinutes(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => arg === '--fleet-minutes' || arg.startsWith('--fleet-minutes='));
  if (at < 0) return 10;
  const minutes = Number(
    argv[at] === '--fleet-minutes' ? argv[at + 1] : argv[at]!.slice('--fleet-minutes='.length),
  );
  if (!Number.isInteger(minutes) || minutes < 1) {
    process.stderr.write('bench: --fleet-minutes takes a whole number of minutes\n');
    process.exit(2);
  }
  return minutes;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const sections = chosenSections(argv);
  const redisMode = chosenRedis(argv);
  // The processes run the compiled output, as `npm start` does.
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('npm run build failed');

  const result: BenchResult = { machine: describeMachine(redisMode) };
  const resumeMs: number[] = [];
  const failed: Record<string, string> = {};
  const redis = await startBenchRedis(redisMode);
  for (const name of sections) {
    const started = performance.now();
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const { resumeMs: clicks = [], ...figures } = await SECTIONS[name]!(redis);
      // Two sections may fill one figure (jobPage: the page's latency, its streams' cost): each keeps its fields.
      for (const [key, value] of Object.entries(figures))
        Object.assign(result, { [key]: { ...(result as Record<string, object>)[key], ...value } });
      resumeMs.push(...clicks);
    } catch (error) {
      // One stuck or broken section is reported, and the others still measure.
      failed[name] = (error as Error).message;
      process.stderr.write(`bench: ${name} FAILED: ${failed[name]}\n`);
    }
    process.stderr.write(`bench: ${name} took ${round((performance.now() - started) / 1000)} s\n`);
  }
  await redis.stop();
  if (Object.keys(failed).length > 0) {
    result.failed = failed;
    process.exitCode = 1;
  }
  if (resumeMs.length > 0)
    result.approvalResume = { p50: round(percentile(resumeMs, 50)), n: resumeMs.length };
  // With --json the JSON is the output and the table goes to stderr, so one run feeds both.
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.stderr.write(`${renderTable(result)}\n`);
  } else process.stdout.write(`${renderTable(result)}\n`);
}

await main();
