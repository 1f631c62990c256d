import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';

const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * A job's full output, streamed to a file (never held in memory). The upload reads at most the
 * last 20 MB, so a runaway playbook cannot exhaust the worker.
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
      await new Promise<void>((resolve) =>
        stream.writableNeedDrain ? stream.once('drain', () => resolve()) : resolve(),
      );
      const { size } = await stat(path);
      const start = Math.max(0, size - UPLOAD_LIMIT_BYTES);
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(size - start);
        await handle.read(buffer, 0, buffer.length, start);
        const text = buffer.toString('utf8');
        return start > 0 ? `[first ${start} bytes left out; the whole log is at ${path}]\n${text}` : text;
      } finally {
        await handle.close();
      }
    },
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
