import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecRequest } from '../../src/lifecycle/ports/remote-shell.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { waitFor } from '../support/wait-for.js';
import { labTarget } from './lab-target.js';
import { processIsRunning } from './process-is-running.js';

/**
 * sshd does not end a pty-less command when its channel closes; these tests prove the adapter does, for
 * the command's whole process tree: the pid checked is a grandchild (a background `sleep` of a shell).
 */
describe('ending remote commands', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell();
  let runs = 0;

  beforeAll(async () => {
    lab = await startSshd();
  });
  afterAll(async () => {
    await lab?.stop();
  });

  /** Starts a remote tree whose `sleep 300` grandchild writes its pid to a file; returns both. */
  function startSleeper(request: Partial<ExecRequest>) {
    const pidFile = join(lab.dir, `sleeper-${++runs}.pid`);
    const running = shell.exec(labTarget(lab), {
      argv: ['sh', '-c', 'sleep 300 & echo $! > "$1"; wait', 'sh', pidFile],
      timeoutMs: 60_000,
      ...request,
    });
    const pid = waitFor('the remote sleeper to start', async () => {
      const text = await readFile(pidFile, 'utf8').catch(() => '');
      return text.endsWith('\n') ? Number(text) : undefined;
    });
    return { running, pid };
  }

  async function expectEnded(pid: number): Promise<void> {
    await waitFor(`remote process ${pid} to end`, async () =>
      (await processIsRunning(pid)) ? undefined : true,
    );
  }

  it('ends the remote process tree when the command times out', async () => {
    const { running, pid } = startSleeper({ timeoutMs: 1500 });
    const outcome = running.catch((error: unknown) => error);
    expect(await processIsRunning(await pid)).toBe(true);
    expect(await outcome).toMatchObject({ code: 'COMMAND_TIMEOUT', details: { remoteEnded: true } });
    expect(await processIsRunning(await pid)).toBe(false);
  });

  it('ends the remote process tree when cancelled', async () => {
    const controller = new AbortController();
    const { running, pid } = startSleeper({ signal: controller.signal });
    const outcome = running.catch((error: unknown) => error);
    const sleeper = await pid;
    expect(await processIsRunning(sleeper)).toBe(true);
    const cancelledAt = Date.now();
    controller.abort(new Error('operator pressed cancel'));
    expect(await outcome).toMatchObject({ code: 'CANCELLED', details: { remoteEnded: true } });
    expect(Date.now() - cancelledAt).toBeLessThan(3000);
    // The kill has been sent and seen; on a loaded machine the kernel may take a moment to reap it.
    await expectEnded(sleeper);
  });

  it('rejects at once when cancelled before it starts', async () => {
    await expect(
      shell.exec(labTarget(lab), { argv: ['true'], timeoutMs: 5000, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('reports a connection dropped mid-command, and the remote tree still ends', async () => {
    const { running, pid } = startSleeper({});
    const outcome = running.catch((error: unknown) => error);
    const sleeper = await pid;
    await lab.killSessions();
    expect(await outcome).toMatchObject({ code: 'SSH_CONNECTION_LOST', details: { remoteEnded: false } });
    await expectEnded(sleeper);
  });

  it('still serves new connections after sessions were killed', async () => {
    const result = await shell.exec(labTarget(lab), { argv: ['true'], timeoutMs: 5000 });
    expect(result.exitCode).toBe(0);
  });
});
