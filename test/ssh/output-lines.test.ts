import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/ssh/create-line-splitter.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { waitFor } from '../support/wait-for.js';
import { labTarget } from './lab-target.js';
import { runCollecting } from './run-collecting.js';

const LINES = 50_000;
const PADDING = 'x'.repeat(390);

describe('output lines from a real sshd', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell();

  beforeAll(async () => {
    lab = await startSshd();
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('holds the remote writer while onLine is busy, and loses or reorders nothing', async () => {
    // 50k lines of ~400 bytes (20 MB): far more than the SSH window and stream buffers together.
    const pidFile = join(lab.dir, 'writer.pid');
    const writer = `echo $$ > "$1"; exec awk 'BEGIN { for (i = 1; i <= ${LINES}; i++) print i, "${PADDING}" }'`;
    let writerBlocked = false;
    const received: string[] = [];

    const result = await shell.exec(labTarget(lab), {
      argv: ['sh', '-c', writer, 'sh', pidFile],
      timeoutMs: 20_000,
      onLine: async (line, stream) => {
        received.push(stream === 'stdout' ? line : `stderr: ${line}`);
        if (received.length === 1) {
          // Proof of backpressure: while this line is pending, the remote writer stops for good, blocked
          // on its full pipe, with most of its output unwritten (without it, it would finish in a blink).
          const pid = Number(await readFile(pidFile, 'utf8'));
          let written = -1;
          let unchanged = 0;
          writerBlocked = await waitFor('the remote writer to stay blocked', async () => {
            const wchan = await readFile(`/proc/${pid}/wchan`, 'utf8').catch(() => '');
            const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
            const now = Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? -1);
            unchanged = wchan.includes('pipe_write') && now === written ? unchanged + 1 : 0;
            written = now;
            return unchanged >= 4 && written < LINES * PADDING.length ? true : undefined;
          });
        } else if (received.length % 10_000 === 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        } else {
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
    });

    expect(result.exitCode).toBe(0);
    expect(writerBlocked).toBe(true);
    expect(received).toHaveLength(LINES);
    const outOfPlace = received.findIndex((line, index) => line !== `${index + 1} ${PADDING}`);
    expect(outOfPlace).toBe(-1);
  });

  it('caps a 1 MB line with a marker and carries on with the next lines', async () => {
    const { stdout, exitCode } = await runCollecting(shell, labTarget(lab), [
      'sh',
      '-c',
      "head -c 1048576 /dev/zero | tr '\\0' y; echo; echo after; printf 'no newline at the end'",
    ]);
    expect(exitCode).toBe(0);
    expect(stdout).toHaveLength(3);
    expect(stdout[0]).toBe(
      `${'y'.repeat(MAX_LINE_BYTES)} [... line truncated, ${1048576 - MAX_LINE_BYTES} more bytes]`,
    );
    expect(stdout.slice(1)).toEqual(['after', 'no newline at the end']);
  });

  it('splits CRLF output and keeps stdout and stderr apart', async () => {
    const { stdout, stderr } = await runCollecting(shell, labTarget(lab), [
      'sh',
      '-c',
      "printf 'a\\r\\nb\\r\\n'; printf 'e1\\ne2' >&2",
    ]);
    expect(stdout).toEqual(['a', 'b']);
    expect(stderr).toEqual(['e1', 'e2']);
  });

  it('ends the remote command and rejects with the error when onLine fails', async () => {
    const failure = new Error('reporter broke');
    await expect(
      shell.exec(labTarget(lab), {
        argv: ['sh', '-c', 'echo first; exec sleep 300'],
        timeoutMs: 20_000,
        onLine: () => Promise.reject(failure),
      }),
    ).rejects.toBe(failure);
  });
});
