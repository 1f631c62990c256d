import { startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { percentile, round } from './stats.js';

const JOBS = 50;
/**
 * Slack takes about one message per second per channel and a verify job posts two (its board and
 * its step's result; the outcome rides on the log upload): commands come no faster than that, as
 * people type them, so the figure is the bot's latency and not Slack's queue.
 */
const CADENCE_MS = 3_000;

/**
 * Command → first thread post: from sending `/cluster verify dev` to the job's status board
 * arriving at Slack (chat.postMessage in #ops, not in a thread), one command every 3 s, 50 jobs.
 */
export async function measureFirstPost(
  redis: BenchRedis,
): Promise<{ firstPost: { p50: number; p99: number; n: number } }> {
  const lab = await startBenchLab({ redis });
  try {
    await lab.warmUp();
    const latencies: number[] = [];
    for (let i = 0; i < JOBS; i++) {
      const due = Date.now() + CADENCE_MS;
      const response = await lab.command('verify dev');
      const jobId = await lab.jobIdOf(response);
      const root = await lab.slack.waitFor(
        () =>
          lab.slack
            .callsTo('chat.postMessage')
            .find(
              (call) =>
                call.ok &&
                call.at >= response.sentAt &&
                call.args.channel === 'C0OPS' &&
                !call.args.thread_ts,
            ),
        { timeoutMs: 30_000, intervalMs: 5, description: `the board of ${jobId}` },
      );
      latencies.push(root.at - response.sentAt);
      await lab.outcome(jobId);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
    return {
      firstPost: {
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        n: latencies.length,
      },
    };
  } finally {
    await lab.stop();
  }
}
