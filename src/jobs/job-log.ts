import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** About 25k lines: more than anyone reads in Slack, small enough that the upload's copies stay cheap. */
const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * A job's full output, streamed to a file (never held in memory). The upload reads at most the
 * last 2 MB, whole lines only, so a runaway playbook cannot swell the worker; the file keeps it all.
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
    async read(): Promise<string> {
      // Writes land in order: once this empty one is on disk, every line before it is too.
      await new Promise<void>((resolve, reject) =>
        stream.write('', (error) => (error ? reject(error) : resolve())),
      );
      const { size } = await stat(path);
      const start = Math.max(0, size - UPLOAD_LIMIT_BYTES);
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(size - start);
        await handle.read(buffer, 0, buffer.length, start);
        if (start === 0) return buffer.toString('utf8');
        const firstWhole = buffer.indexOf(0x0a) + 1;
        return `[first ${start + firstWhole} bytes left out; the whole log is at ${path}]\n${buffer.toString('utf8', firstWhole)}`;
      } finally {
        await handle.close();
      }
    },
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
