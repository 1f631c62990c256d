import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface JobLogLimits {
  /** A log last written longer ago than this goes. */
  readonly maxAgeMs: number;
  /** Past this total, the least recently written logs go until the rest fit. */
  readonly maxBytes: number;
  readonly now: () => number;
  /** A running job's log is never removed, however old or large. */
  readonly isRunning: (jobId: string) => Promise<boolean>;
}

/**
 * Keeps `<dataDir>/jobs` from filling the disk: logs older than the retention go, then the oldest
 * until the total is within the cap. Returns the removed files' names.
 */
export async function pruneJobLogs(dataDir: string, limits: JobLogLimits): Promise<string[]> {
  const dir = join(dataDir, 'jobs');
  const names = await readdir(dir).catch(() => [] as string[]);
  const logs = (
    await Promise.all(
      names
        .filter((name) => name.endsWith('.log'))
        .map(async (name) => {
          const info = await stat(join(dir, name)).catch(() => undefined);
          return info?.isFile() ? { name, bytes: info.size, writtenAt: info.mtimeMs } : undefined;
        }),
    )
  )
    .filter((log) => log !== undefined)
    .sort((a, b) => a.writtenAt - b.writtenAt);
  let total = logs.reduce((sum, log) => sum + log.bytes, 0);
  const removed: string[] = [];
  for (const log of logs) {
    const tooOld = limits.now() - log.writtenAt > limits.maxAgeMs;
    if (!tooOld && total <= limits.maxBytes) continue;
    if (await limits.isRunning(log.name.slice(0, -'.log'.length))) continue;
    await rm(join(dir, log.name), { force: true });
    total -= log.bytes;
    removed.push(log.name);
  }
  return removed;
}
