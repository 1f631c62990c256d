import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startBenchLab } from './bench-lab.js';
import { round } from './stats.js';

const OUTPUT_MB = 500;

export interface MemoryFigures {
  readonly memory: {
    peakRssMb: number;
    peakRssMbDoubled: number;
    /** Playbook output the worker streamed in each run (its job log's size). */
    streamedMb: number;
    streamedMbDoubled: number;
    /** Output through the worker per second of job time. */
    mbPerSecond: number;
  };
}

/**
 * Peak RSS of a fresh worker process while one job (`packages k3s-dev-1`, a single play) streams
 * 500 MB of playbook output, then of another fresh worker for 1000 MB: flat means nothing scales
 * with the output.
 */
export async function measureMemory(): Promise<MemoryFigures> {
  const once = await streamThroughWorker(OUTPUT_MB);
  const doubled = await streamThroughWorker(2 * OUTPUT_MB);
  return {
    memory: {
      peakRssMb: once.peakRssMb,
      peakRssMbDoubled: doubled.peakRssMb,
      streamedMb: once.streamedMb,
      streamedMbDoubled: doubled.streamedMb,
      mbPerSecond: round(once.streamedMb / once.seconds),
    },
  };
}

async function streamThroughWorker(megabytes: number) {
  const lab = await startBenchLab({ labVars: { lab_stream_mb: megabytes } });
  try {
    const response = await lab.command('packages k3s-dev-1');
    const jobId = await lab.jobIdOf(response);
    const outcome = await lab.outcome(jobId, 1_800_000);
    if (outcome.outcome !== 'succeeded') throw new Error(`packages ${outcome.outcome}: ${outcome.msg}`);
    const { size } = await stat(join(lab.processEnv.DATA_DIR!, 'jobs', `${jobId}.log`));
    return {
      peakRssMb: await peakRssMb(lab.workers[0]!.child.pid!),
      streamedMb: round(size / 2 ** 20),
      seconds: (outcome.at - response.sentAt) / 1000,
    };
  } finally {
    await lab.stop();
  }
}

/** The kernel's high-water mark of the process's resident set (VmHWM), in MiB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return round(Number(kb) / 1024);
}
