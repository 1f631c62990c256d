import { writeFile } from 'node:fs/promises';
import { type LogStream, openLogStream } from '../test/support/open-log-stream.js';
import { startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { rssMb } from './measure-memory.js';
import { runLanes } from './run-lanes.js';
import { percentile, round } from './stats.js';

const STREAMS = 500;
/** "lab stream line N from k3s-dev-1: the quick brown fox…" is about 83 bytes: 100k lines, as the log. */
const STREAM_MB = (100_000 * 83) / 2 ** 20;
const PROBES = 40;
const PUBLIC_URL = 'http://127.0.0.1';
const LINK = /<(http:\/\/127\.0\.0\.1\/jobs\/[^|>]+)\|job page/;

export interface PageStreamFigures {
  readonly jobPage: {
    /** Log streams of one 100k-line job held open at once by readers that read nothing (answered 200). */
    streamsOpen: number;
    /** The bot process's peak RSS while they were open (its high-water mark reset just before). */
    streamsPeakRssMb: number;
    /** Its RSS just before they were opened. */
    streamsWarmRssMb: number;
    /** `/healthz` on the ops port and signed `/cluster verify dev` acks, while the streams were open. */
    streamsHealthzP99: number;
    streamsAckP99: number;
    streamsAckN: number;
  };
}

/**
 * 500 readers open the page log of a job whose log is 100k lines and then read nothing, as the
 * issue's attacker did: the bot process (HTTP receiver, page server on Slack's port) with its caps
 * raised to 500 for one job, so what is measured is what a stream costs, not the cap. While they are
 * open, /healthz and acks are timed; the bot's peak RSS is read once its writes have backed up.
 */
export async function measurePageStreams(redis: BenchRedis): Promise<PageStreamFigures> {
  const lab = await startBenchLab({
    redis,
    labVars: { lab_stream_mb: STREAM_MB },
    env: { PUBLIC_URL, JOB_PAGE_STREAMS: String(STREAMS), JOB_PAGE_STREAMS_PER_JOB: String(STREAMS) },
  });
  const streams: LogStream[] = [];
  try {
    await lab.warmUp();
    const jobId = await lab.jobIdOf(await lab.command('packages k3s-dev-1'));
    const done = await lab.outcome(jobId, 300_000);
    if (done.outcome !== 'succeeded') throw new Error(`packages ${done.outcome}: ${done.msg}`);
    const board = await lab.slack.waitFor(
      () =>
        lab.slack
          .messages('C0OPS')
          .find((m) => m.text.includes(jobId.replace('job-', '#')) && LINK.test(m.text)),
      { timeoutMs: 30_000, description: `the board of ${jobId} with its page link` },
    );
    const link = LINK.exec(board.text)![1]!
      .replaceAll('&amp;', '&')
      .replace(PUBLIC_URL, `http://127.0.0.1:${lab.bot.port}`);
    const pid = lab.bot.child.pid!;
    const streamsWarmRssMb = await rssMb(pid, 'VmRSS');
    // Linux: "5" resets the peak RSS to the current RSS (proc(5), /proc/pid/clear_refs).
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    for (let i = 0; i < STREAMS; i += 1) streams.push(await openLogStream(link, { paused: true }));
    const healthz = await runLanes(PROBES, 4, () =>
      timed(() => fetch(`http://127.0.0.1:${lab.bot.opsPort}/healthz`)),
    );
    const acks = await runLanes(PROBES, 4, async () => {
      const response = await lab.driver.slash('verify dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
      if (response.status !== 200) throw new Error(`ack was HTTP ${response.status}`);
      return response.latencyMs;
    });
    await settled(pid);
    return {
      jobPage: {
        streamsOpen: streams.filter((stream) => stream.status === 200).length,
        streamsPeakRssMb: await rssMb(pid, 'VmHWM'),
        streamsWarmRssMb,
        streamsHealthzP99: round(percentile(healthz, 99)),
        streamsAckP99: round(percentile(acks, 99)),
        streamsAckN: acks.length,
      },
    };
  } finally {
    for (const stream of streams) stream.close();
    await lab.stop();
  }
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await call();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`/healthz was HTTP ${response.status}`);
  return performance.now() - started;
}

/** Until the process's RSS has stopped growing (the streams' writes have backed up): three like readings a second apart. */
async function settled(pid: number): Promise<void> {
  const readings: number[] = [];
  for (let i = 0; i < 60; i += 1) {
    readings.push(await rssMb(pid, 'VmRSS'));
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) < 2) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
