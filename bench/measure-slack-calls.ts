import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { runUpDev } from './run-up-dev.js';
import { round } from './stats.js';

/** Lines each play's report step prints; up dev runs enough plays for about 100k in all. */
const LINES_PER_REPORT = 12_500;

export interface SlackCallFigures {
  readonly slack: {
    calls: Record<string, number>;
    total: number;
    rateLimited: number;
    /** 3 per step + 1 per 2 s of runtime. */
    budget: number;
    steps: number;
    runtimeSeconds: number;
    outputLines: number;
  };
  readonly resumeMs: readonly number[];
}

/** One `up dev` whose playbooks print about 100k lines, against fake Slack's rate limits. */
export async function measureSlackCalls(redis: BenchRedis): Promise<SlackCallFigures> {
  const lab = await startBenchLab({ redis, labVars: { lab_output_lines: LINES_PER_REPORT } });
  try {
    const run = await runUpDev(lab);
    const calls = lab.slack.calls.filter((call) => call.at >= run.sentAt && call.at <= run.endedAt);
    const byMethod: Record<string, number> = {};
    for (const call of calls) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
    const log = await readFile(join(lab.processEnv.DATA_DIR!, 'jobs', `${run.jobId}.log`), 'utf8');
    return {
      slack: {
        calls: byMethod,
        total: calls.length,
        rateLimited: calls.filter((call) => call.rateLimited).length,
        budget: round(3 * run.steps + run.seconds / 2),
        steps: run.steps,
        runtimeSeconds: round(run.seconds),
        outputLines: log.match(/lab output line /g)?.length ?? 0,
      },
      resumeMs: run.resumeMs,
    };
  } finally {
    await lab.stop();
  }
}
