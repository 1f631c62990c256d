import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteShell } from '../../src/lifecycle/ports/remote-shell.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { labTarget } from './lab-target.js';
import { runCollecting } from './run-collecting.js';

describe('ssh RemoteShell against a real sshd', () => {
  let lab: SshdLab;
  let scratch: string;
  const shell: RemoteShell = createSshRemoteShell();

  beforeAll(async () => {
    lab = await startSshd();
    scratch = await mkdtemp(join(tmpdir(), 'ssh-remote-shell-test-'));
  });
  afterAll(async () => {
    await lab?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs a command and reports stdout, stderr and the exit code', async () => {
    const result = await runCollecting(shell, labTarget(lab), ['sh', '-c', 'echo out; echo err >&2; exit 7']);
    expect(result).toMatchObject({ exitCode: 7, signal: null, stdout: ['out'], stderr: ['err'] });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('delivers hostile arguments byte for byte, each as one argument, and runs none of them', async () => {
    const pwned = join(scratch, 'pwned');
    const hostile = [
      `$(touch ${pwned})`,
      `\`touch ${pwned}\``,
      `; touch ${pwned}; rm -rf /nonexistent`,
      `' ; touch ${pwned}; echo '`,
      '"double" \'single\' \\back\\slash',
      'line one\nline two\r\nline three',
      'ünïcødé ✓ 🚀 日本語',
      '  leading and trailing spaces  ',
      '*',
      '',
      '-n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point of this argument
      '$HOME ${PATH} $((1+1)) !! ~',
    ];
    // Count and base64 of every argument as the remote program received them.
    const echo = 'printf "%s" "$#"; for a; do printf " %s" "$(printf "%s" "$a" | base64 -w0)"; done';
    const { stdout, exitCode } = await runCollecting(shell, labTarget(lab), [
      'sh',
      '-c',
      echo,
      'sh',
      ...hostile,
    ]);
    expect(exitCode).toBe(0);
    const [count, ...encoded] = (stdout[0] ?? '').split(' ');
    expect(Number(count)).toBe(hostile.length);
    expect(encoded.map((value) => Buffer.from(value, 'base64').toString('utf8'))).toEqual(hostile);
    expect(existsSync(pwned)).toBe(false);
  });

  it("echoes a hostile argument back with printf '%s\\n'", async () => {
    const value = `it's $(id) "quoted"; rm -rf / # ✓`;
    const { stdout } = await runCollecting(shell, labTarget(lab), ['printf', '%s\n', value]);
    expect(stdout).toEqual([value]);
  });

  it('runs in the requested directory with the requested environment', async () => {
    const dir = join(scratch, "dir with 'quotes' and $pace");
    await mkdir(dir);
    const { stdout } = await runCollecting(
      shell,
      labTarget(lab),
      ['sh', '-c', 'pwd; printf "%s\\n" "$GREETING"'],
      {
        cwd: dir,
        env: { GREETING: "hello 'world' $(id)" },
      },
    );
    expect(stdout).toEqual([dir, "hello 'world' $(id)"]);
  });

  it('fails with the exit code of a missing directory, without running the command', async () => {
    const { exitCode, stdout } = await runCollecting(shell, labTarget(lab), ['echo', 'ran'], {
      cwd: join(scratch, 'missing'),
    });
    expect(exitCode).not.toBe(0);
    expect(stdout).toEqual([]);
  });

  it('logs what was asked, unwrapped, in the lab', async () => {
    await runCollecting(shell, labTarget(lab), ['echo', 'logged marker'], { cwd: '/', env: { A_B: 'c' } });
    expect(await lab.commands()).toContain("cd -- / && env A_B=c echo 'logged marker'");
  });

  it('logs each command as it ends, with the time its connection took apart from the whole', async () => {
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const logging = createSshRemoteShell({
      logger: { debug: (details, message) => logged.push({ details: { ...details }, message }), warn() {} },
    });
    await runCollecting(logging, labTarget(lab), [
      'sh',
      '-c',
      'sleep 0.2; exit 3',
      '--list',
      '--token=s3cret',
    ]);
    const ended = logged.filter((entry) => entry.message === 'remote command ended');
    expect(ended).toHaveLength(1);
    const { connectMs, durationMs, ...rest } = ended[0]!.details as { connectMs: number; durationMs: number };
    expect(rest).toEqual({ label: 'lab-node', program: 'sh', options: ['--list', '--token'], exitCode: 3 });
    expect(connectMs).toBeGreaterThan(0);
    expect(durationMs - connectMs).toBeGreaterThanOrEqual(200);
  });

  it('logs each step of a detached command as the program it runs, marked detached', async () => {
    const logged: { details: Record<string, unknown>; message: string }[] = [];
    const logging = createSshRemoteShell({
      logger: { debug: (details, message) => logged.push({ details: { ...details }, message }), warn() {} },
    });
    const result = await logging.runDetached(labTarget(lab), {
      argv: ['true', '--list-tasks', '--limit=node-1'],
      folder: join(scratch, 'detached-logged'),
      fromLine: 0,
      attach: false,
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
    const ended = logged.filter((entry) => entry.message === 'remote command ended');
    // Its start and its follow at least; none logged as the shell that runs the protocol.
    expect(ended.length).toBeGreaterThanOrEqual(2);
    for (const { details } of ended)
      expect(details).toMatchObject({
        program: 'true',
        options: ['--list-tasks', '--limit'],
        detached: true,
      });
  });

  it('reports an unreachable port quickly', async () => {
    const closed = labTarget(lab, { port: await closedPort() });
    const startedAt = Date.now();
    await expect(shell.exec(closed, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'SSH_UNREACHABLE',
      details: { host: '127.0.0.1', port: closed.port, level: 'client-socket' },
    });
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });

  it('gives up on a server that never answers after connectTimeoutMs, or at once when cancelled', async () => {
    const silent = createServer(() => {});
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const target = labTarget(lab, { port: (silent.address() as AddressInfo).port });
      const impatient = createSshRemoteShell({ connectTimeoutMs: 500 });
      await expect(impatient.exec(target, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
        code: 'SSH_UNREACHABLE',
        details: { level: 'client-timeout' },
      });
      const cancelled = shell.exec(target, {
        argv: ['true'],
        timeoutMs: 5000,
        signal: AbortSignal.timeout(200),
      });
      await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      silent.close();
    }
  });

  it('reports a refused key as SSH_AUTH_FAILED', async () => {
    const otherLab = await startSshd();
    try {
      const target = labTarget(lab, { privateKeyPath: otherLab.clientKeyPath });
      await expect(shell.exec(target, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
        code: 'SSH_AUTH_FAILED',
      });
    } finally {
      await otherLab.stop();
    }
  });

  it('reports a missing private key as SSH_AUTH_FAILED', async () => {
    const target = labTarget(lab, { privateKeyPath: join(scratch, 'no-such-key') });
    await expect(shell.exec(target, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'SSH_AUTH_FAILED',
    });
  });

  it('refuses an invalid command before connecting', async () => {
    await expect(
      shell.exec(labTarget(lab), { argv: ['echo', 'a\0b'], timeoutMs: 5000 }),
    ).rejects.toMatchObject({
      code: 'COMMAND_INVALID',
    });
  });
});

/** A loopback port nobody listens on: bind, note it, close. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
