import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJobLog } from '../../src/jobs/job-log.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('job log', () => {
  it('keeps every line on disk and hands the upload only the last 2 MB, in whole lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-joblog-'));
    dirs.push(dir);
    const log = await openJobLog(dir, 'job-3');
    for (let i = 1; i <= 50_000; i++) await log.append(`line ${i} ${'é'.repeat(30)}`);

    const upload = await log.read();
    await log.close();

    expect((await stat(log.path)).size).toBeGreaterThan(3 * 1024 * 1024);
    const [header, first, ...rest] = upload.split('\n');
    expect(header).toMatch(/^\[first \d+ bytes left out; the whole log is at .*job-3\.log\]$/);
    expect(first).toMatch(/^line \d+ (é){30}$/);
    expect(rest.at(-2)).toBe(`line 50000 ${'é'.repeat(30)}`);
    expect(Buffer.byteLength(upload)).toBeLessThanOrEqual(2 * 1024 * 1024 + 200);
  });

  it('uploads a small log whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cb-joblog-'));
    dirs.push(dir);
    const log = await openJobLog(dir, 'job-4');
    await log.append('only line');
    expect(await log.read()).toBe('only line\n');
    await log.close();
  });
});
