import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { round } from './stats.js';

const OUTPUT_MB = 500;

export interface MemoryFigures {
  readonly memory: {
    peakRssMb: number;
    peakRssMbDoubled: number;
    /** Playbook output the worker streamed in each run (its job log's size). */
    streamedMb: number;
    streamedMbDoubled: number;
    /** The worker's RSS before the stream, after a verify job loaded everything a job can use. */
    warmRssMb: number;
    /** Output through the worker per second of job time. */
    mbPerSecond: number;
  };
}

/**
 * Peak RSS of a worker process while one job (`packages k3s-dev-1`, a single play) streams 500 MB
 * of playbook output, then of another worker for 1000 MB: flat means nothing scales with the
 * output. Each worker first runs `verify dev`, so the Kubernetes client is loaded as in a worker
 * that has been up a while, and its high-water mark is reset just before the stream.
 */
export async function measureMemory(redis: BenchRedis): Promise<MemoryFigures> {
  const once = await streamThroughWorker(redis, OUTPUT_MB);
  const doubled = await streamThroughWorker(redis, 2 * OUTPUT_MB);
  return {
    memory: {
      peakRssMb: once.peakRssMb,
      peakRssMbDoubled: doubled.peakRssMb,
      streamedMb: once.streamedMb,
      streamedMbDoubled: doubled.streamedMb,
      warmRssMb: once.warmRssMb,
      mbPerSecond: round(once.streamedMb / once.seconds),
    },
  };
}

async function streamThroughWorker(redis: BenchRedis, megabytes: number) {
  const lab = await startBenchLab({ redis, labVars: { lab_stream_mb: megabytes } });
  try {
    const pid = await lab.warmUp();
    const warmRssMb = await rssMb(pid, 'VmRSS');
    // Linux: "5" resets the peak RSS to the current RSS (proc(5), /proc/pid/clear_refs).
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    const response = await lab.command('packages k3s-dev-1');
    const jobId = await lab.jobIdOf(response);
    const outcome = await lab.outcome(jobId, 1_800_000);
    if (outcome.outcome !== 'succeeded') throw new Error(`packages ${outcome.outcome}: ${outcome.msg}`);
    const { size } = await stat(join(lab.processEnv.DATA_DIR!, 'jobs', `${jobId}.log`));
    return {
      peakRssMb: await rssMb(pid, 'VmHWM'),
      warmRssMb,
      streamedMb: round(size / 2 ** 20),
      seconds: (outcome.at - response.sentAt) / 1000,
    };
  } finally {
    await lab.stop();
  }
}

/** The process's resident set now (VmRSS) or at its peak (VmHWM), in MiB, as the kernel counts it. */
export async function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return round(Number(kb) / 1024);
}
