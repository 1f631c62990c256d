import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DETACH_SCRIPT_NAME, KILL_SCRIPT, RUNNER_SCRIPT } from '../../src/ssh/detach-scripts.js';
import { waitFor } from '../support/wait-for.js';

const run = promisify(execFile);
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('ending a detached command on purpose (the kill script, run here as on the host)', () => {
  it('ends a runner launched just after the cancel cut its start off, before it wrote its pid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cb-detach-kill-'));
    const folder = join(dir, 'job-1', '2-cilium');
    // What a start cut off mid-way leaves: its folder and out, no pid yet; its runner comes a moment later.
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'out'), '');
    const ending = run('sh', ['-c', KILL_SCRIPT, DETACH_SCRIPT_NAME, folder, '5']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const runner = spawn('setsid', ['sh', '-c', RUNNER_SCRIPT, DETACH_SCRIPT_NAME, folder, 'sleep', '60'], {
      detached: true,
      stdio: 'ignore',
    });
    runner.unref();
    await ending;
    const pid = Number(await readFile(join(folder, 'pid'), 'utf8'));
    expect(['143\n', '137\n']).toContain(await readFile(join(folder, 'rc'), 'utf8'));
    await waitFor('the runner gone', () => (alive(pid) ? undefined : true));
  });
});
