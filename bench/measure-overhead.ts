import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectRedis } from '../src/app/connect-redis.js';
import { readEnv } from '../src/config/read-env.js';
import { quoteShellArgument } from '../src/lifecycle/quote-argv.js';
import { REDIS_URL } from '../test/support/redis-prefix.js';
import { type BenchLab, startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import {
  type Breakdown,
  breakDownJob,
  breakDownScript,
  medianBreakdown,
  type ScriptLineTiming,
} from './break-down-job.js';
import { readJobTimeline } from './read-job-timeline.js';
import { runUpDev } from './run-up-dev.js';
import { median, round } from './stats.js';

const PAIRS = 5;

export interface OverheadFigures {
  readonly overhead: {
    ratio: number;
    /** The smallest and largest ratio of one pair: how much the figure moves between runs. */
    ratioMin: number;
    ratioMax: number;
    botSeconds: number;
    scriptSeconds: number;
    pairs: number;
    /** ansible-playbook runs in one up dev (the bot's check-mode previews included). */
    playbookRuns: number;
    /** Where a bot job's time went (ms, median per part over the pairs; see break-down-job.ts). */
    breakdown: Breakdown;
    /** The script's time in the playbooks and in the previews, one line after another (ms, medians). */
    scriptBreakdown: { playbooks: number; previews: number };
    /** Remote commands per bot job, each a channel on its run's connection to the host. */
    remoteCommands: number;
    /**
     * SSH connections per bot job, and the most it may open: one per host each of its runs (one
     * before each approval, one after) touches; the time spent connecting per job (ms). Medians.
     */
    sshConnections: number;
    sshConnectionsTarget: number;
    sshConnectMs: number;
  };
  readonly resumeMs: readonly number[];
}

/**
 * `up dev` run by the bot (approvals answered at once, healthy kube-sim) against the same
 * `ssh ops ansible-playbook …` lines in a plain shell script, alternated, after one warm-up run
 * that also records which lines the bot ran; each bot job's time broken into parts, and the
 * script's into its playbooks and previews.
 */
export async function measureOverhead(redis: BenchRedis): Promise<OverheadFigures> {
  // Debug level for the worker's "remote command ended" lines: one per command, a few hundred per job.
  const lab = await startBenchLab({ redis, env: { LOG_LEVEL: 'debug' } });
  const feed = connectRedis(readEnv({ REDIS_URL, ...lab.processEnv }));
  try {
    const warmUp = await runUpDev(lab);
    // The runs of ansible-playbook, not every line naming it (the toolchain stamp's script does).
    const playbookLines = (await lab.ops.commands()).filter((line) =>
      / ansible-playbook -i /.test(` ${line}`),
    );
    const script = join(lab.processEnv.DATA_DIR!, 'up-dev-by-hand.sh');
    const timings = join(lab.processEnv.DATA_DIR!, 'up-dev-by-hand.times');
    await writeFile(script, shellScript(lab, playbookLines, timings));
    const bot: number[] = [];
    const plain: number[] = [];
    const jobs: Breakdown[] = [];
    const scripts: ReturnType<typeof breakDownScript>[] = [];
    const commands: number[] = [];
    const connections: number[] = [];
    const connectionsTarget: number[] = [];
    const connectMs: number[] = [];
    const resumeMs = [...warmUp.resumeMs];
    for (let pair = 0; pair < PAIRS; pair++) {
      const run = await runUpDev(lab);
      bot.push(run.seconds);
      resumeMs.push(...run.resumeMs);
      const timeline = await readJobTimeline(lab, run, feed, lab.processEnv.REDIS_PREFIX!);
      jobs.push(breakDownJob(timeline));
      commands.push(timeline.commands.length);
      await writeFile(timings, '');
      plain.push(await timeScript(script));
      // Each of the job's runs logs its connections when its shell closes, the last just after the outcome.
      const runs = lab
        .logEntries()
        .filter((entry) => entry.msg === 'ssh connections closed' && entry.jobId === run.jobId);
      connections.push(runs.reduce((sum, entry) => sum + entry.connections!, 0));
      connectionsTarget.push(runs.reduce((sum, entry) => sum + entry.hosts!, 0));
      connectMs.push(runs.reduce((sum, entry) => sum + entry.connectMs!, 0));
      scripts.push(breakDownScript(await readLineTimings(timings, playbookLines)));
    }
    const ratios = bot.map((seconds, i) => seconds / plain[i]!);
    return {
      overhead: {
        ratio: round(median(ratios), 3),
        ratioMin: round(Math.min(...ratios), 3),
        ratioMax: round(Math.max(...ratios), 3),
        botSeconds: round(median(bot), 2),
        scriptSeconds: round(median(plain), 2),
        pairs: PAIRS,
        playbookRuns: playbookLines.length,
        breakdown: medianBreakdown(jobs),
        scriptBreakdown: {
          playbooks: round(median(scripts.map((one) => one.playbooks)), 0),
          previews: round(median(scripts.map((one) => one.previews)), 0),
        },
        remoteCommands: median(commands),
        sshConnections: median(connections),
        sshConnectionsTarget: median(connectionsTarget),
        sshConnectMs: round(median(connectMs), 0),
      },
      resumeMs,
    };
  } finally {
    feed.disconnect();
    await lab.stop();
  }
}

/**
 * What an operator would type on the ops host's doorstep: one ssh per playbook line, stop at the
 * first failure; each line's start and end go to `timings` (bash's own clock: no process per line).
 */
function shellScript(lab: BenchLab, lines: readonly string[], timings: string): string {
  const ssh = [
    'ssh',
    '-p',
    String(lab.ops.port),
    '-i',
    lab.ops.clientKeyPath,
    '-o',
    `UserKnownHostsFile=${lab.ops.knownHostsPath}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
    `${lab.ops.user}@127.0.0.1`,
  ]
    .map(quoteShellArgument)
    .join(' ');
  const log = quoteShellArgument(join(lab.processEnv.DATA_DIR!, 'up-dev-by-hand.log'));
  const times = quoteShellArgument(timings);
  return [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    ...lines.map(
      (line) =>
        `started=$EPOCHREALTIME; ${ssh} ${quoteShellArgument(line)} >>${log}; echo "$started $EPOCHREALTIME" >>${times}`,
    ),
  ]
    .join('\n')
    .concat('\n');
}

function timeScript(path: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`the plain script failed (exit ${code}): ${stderr}`)),
    );
  });
}

/** The script's lines with how long each took, from the `start end` pairs (seconds) it wrote. */
async function readLineTimings(path: string, lines: readonly string[]): Promise<ScriptLineTiming[]> {
  const pairs = (await readFile(path, 'utf8')).trim().split('\n');
  if (pairs.length !== lines.length)
    throw new Error(`the script timed ${pairs.length} of ${lines.length} lines`);
  return pairs.map((pair, i) => {
    const [started, ended] = pair.split(' ').map(Number);
    return { line: lines[i]!, ms: (ended! - started!) * 1000 };
  });
}
