import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quoteShellArgument } from '../src/lifecycle/quote-argv.js';
import { type BenchLab, startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
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
  };
  readonly resumeMs: readonly number[];
}

/**
 * `up dev` run by the bot (approvals answered at once, healthy kube-sim) against the same
 * `ssh ops ansible-playbook …` lines in a plain shell script, alternated, after one warm-up run
 * that also records which lines the bot ran.
 */
export async function measureOverhead(redis: BenchRedis): Promise<OverheadFigures> {
  const lab = await startBenchLab({ redis });
  try {
    const warmUp = await runUpDev(lab);
    const playbookLines = (await lab.ops.commands()).filter((line) => line.includes('ansible-playbook'));
    const script = join(lab.processEnv.DATA_DIR!, 'up-dev-by-hand.sh');
    await writeFile(script, shellScript(lab, playbookLines));
    const bot: number[] = [];
    const plain: number[] = [];
    const resumeMs = [...warmUp.resumeMs];
    for (let pair = 0; pair < PAIRS; pair++) {
      const run = await runUpDev(lab);
      bot.push(run.seconds);
      resumeMs.push(...run.resumeMs);
      plain.push(await timeScript(script));
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
      },
      resumeMs,
    };
  } finally {
    await lab.stop();
  }
}

/** What an operator would type on the ops host's doorstep: one ssh per playbook line, stop at the first failure. */
function shellScript(lab: BenchLab, lines: readonly string[]): string {
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
  return [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    ...lines.map((line) => `${ssh} ${quoteShellArgument(line)} >>${log}`),
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
