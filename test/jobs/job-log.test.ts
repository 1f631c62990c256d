import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJobLog } from '../../src/jobs/job-log.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('job log', () => {
  it('keeps every line on disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-joblog-'));
    dirs.push(dir);
    const log = await openJobLog(dir, 'job-3');
    for (let i = 1; i <= 50_000; i++) await log.append(`line ${i} ${'é'.repeat(30)}`);
    await log.close();
    expect((await stat(log.path)).size).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('is readable by the bot alone: the file 0600 in a 0700 directory, even one that existed wider', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-joblog-'));
    dirs.push(dir);
    await mkdir(join(dir, 'jobs'), { mode: 0o777 });
    await chmod(join(dir, 'jobs'), 0o777);
    const log = await openJobLog(dir, 'job-4');
    await log.append('a line');
    await log.close();
    expect((await stat(log.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'jobs'))).mode & 0o777).toBe(0o700);
  });
});
