import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A job's full output, streamed to a file on the worker's disk (never held in memory). The
 * thread's upload and the job page read the copy in Redis (create-redis-job-feed.ts).
 */
export async function openJobLog(dataDir: string, jobId: string) {
  const dir = join(dataDir, 'jobs');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${jobId}.log`);
  const stream: WriteStream = createWriteStream(path, { flags: 'a' });
  return {
    path,
    append(line: string): void | Promise<void> {
      if (!stream.write(`${line}\n`))
        return new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    },
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
