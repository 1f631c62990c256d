import { startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { percentile, round } from './stats.js';

const JOBS = 10;
/** Each failing verify posts its board, a step result and an alert: about one command per 4 s, as people type. */
const CADENCE_MS = 4_000;

export interface VerifyAlertFigures {
  readonly verifyAlert: { p50: number; max: number; n: number };
}

/**
 * Command → alert: with k3s-dev-2 NotReady, from sending `/cluster verify dev` to the "nodes Ready"
 * alert reaching Slack's alerts channel (a standalone verify reads once; the lab's gate timeout is
 * the default 5 minutes, which a waiting verify would sit out), 10 commands.
 */
export async function measureVerifyAlert(redis: BenchRedis): Promise<VerifyAlertFigures> {
  const lab = await startBenchLab({
    redis,
    sim: { scenario: { nodeNotReady: 'k3s-dev-2' } },
    timeouts: { gate: '5m' },
  });
  const alertAfter = (sentAt: number) =>
    lab.slack
      .callsTo('chat.postMessage')
      .find(
        (call) =>
          call.ok &&
          call.at >= sentAt &&
          call.args.channel === 'C0ALERTS' &&
          String(call.args.text).includes('nodes Ready'),
      );
  try {
    // Warm-up: one-off costs (the Kubernetes client, first connections) are not counted.
    await lab.outcome(await lab.jobIdOf(await lab.command('verify dev')));
    const latencies: number[] = [];
    for (let i = 0; i < JOBS; i++) {
      const due = Date.now() + CADENCE_MS;
      const response = await lab.command('verify dev');
      const jobId = await lab.jobIdOf(response);
      const alert = await lab.slack.waitFor(() => alertAfter(response.sentAt), {
        timeoutMs: 60_000,
        intervalMs: 5,
        description: `the alert of ${jobId}`,
      });
      latencies.push(alert.at - response.sentAt);
      await lab.outcome(jobId);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    }
    return {
      verifyAlert: {
        p50: round(percentile(latencies, 50)),
        max: round(Math.max(...latencies)),
        n: latencies.length,
      },
    };
  } finally {
    await lab.stop();
  }
}
