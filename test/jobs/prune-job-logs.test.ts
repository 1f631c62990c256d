import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneJobLogs } from '../../src/jobs/prune-job-logs.js';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const KB = 1024;
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cb-prune-'));
  await mkdir(join(dataDir, 'jobs'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** job-1 … job-n, 100 kB each, job-1 written longest ago (one hour apart). */
async function fill(count: number, newestAt = NOW) {
  for (let i = 1; i <= count; i++) {
    const path = join(dataDir, 'jobs', `job-${i}.log`);
    await writeFile(path, 'x'.repeat(100 * KB));
    const at = new Date(newestAt - (count - i) * 3_600_000);
    await utimes(path, at, at);
  }
}
const left = async () =>
  (await readdir(join(dataDir, 'jobs'))).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

describe('job logs under DATA_DIR', () => {
  it('past the size cap, removes the oldest until the rest fit, never a running job log', async () => {
    await fill(12);
    const removed = await pruneJobLogs(dataDir, {
      maxAgeMs: 30 * DAY,
      maxBytes: 800 * KB,
      now: () => NOW,
      // job-2 is parked for an approval: old, but still being written.
      isRunning: async (jobId) => jobId === 'job-2',
    });
    // 1200 kB in 12 logs, 800 kB allowed: four go, the oldest that are not running.
    expect(removed).toEqual(['job-1.log', 'job-3.log', 'job-4.log', 'job-5.log']);
    expect(await left()).toEqual([
      'job-2.log',
      'job-6.log',
      'job-7.log',
      'job-8.log',
      'job-9.log',
      'job-10.log',
      'job-11.log',
      'job-12.log',
    ]);
  });

  it('removes logs older than the retention even under the cap, and leaves other files alone', async () => {
    await fill(3, NOW - 31 * DAY);
    await fill(1);
    await writeFile(join(dataDir, 'jobs', 'notes.txt'), 'kept');
    const removed = await pruneJobLogs(dataDir, {
      maxAgeMs: 30 * DAY,
      maxBytes: 1024 * KB * KB,
      now: () => NOW,
      isRunning: async () => false,
    });
    expect(removed.sort()).toEqual(['job-2.log', 'job-3.log']);
    expect(await left()).toEqual(['job-1.log', 'notes.txt']);
  });

  it('does nothing when there is no jobs folder yet', async () => {
    await rm(join(dataDir, 'jobs'), { recursive: true });
    expect(
      await pruneJobLogs(dataDir, {
        maxAgeMs: DAY,
        maxBytes: 1,
        now: () => NOW,
        isRunning: async () => false,
      }),
    ).toEqual([]);
  });
});
