import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A job's full output, streamed to a file on the worker's disk (never held in memory). The
 * thread's upload and the job page read the copy in Redis (create-redis-job-feed.ts).
 */
export async function openJobLog(dataDir: string, jobId: string) {
  const dir = join(dataDir, 'jobs');
  // The log holds everything a playbook printed (redacted, but still the operators' world): only
  // the bot's user may read it. mkdir leaves an existing directory's mode as it was, so chmod too.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const path = join(dir, `${jobId}.log`);
  const stream: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  return {
    path,
    append(line: string): void | Promise<void> {
      if (!stream.write(`${line}\n`))
        return new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    },
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
