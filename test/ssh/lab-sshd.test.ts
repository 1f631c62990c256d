import { execFile } from 'node:child_process';
import { createConnection } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { waitFor } from '../support/wait-for.js';
import { labTarget } from './lab-target.js';
import { runCollecting } from './run-collecting.js';

const run = promisify(execFile);
const NODES = ['127.0.0.31', '127.0.0.32', '127.0.0.33'];

describe('the sshd lab', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell();
  const on = (address: string, argv: string[]) =>
    runCollecting(shell, labTarget(lab, { host: address }), argv);

  beforeAll(async () => {
    lab = await startSshd({ addresses: NODES });
  });
  afterAll(async () => {
    await lab?.stop();
  });

  it('serves every address on one port with the host key it reports', async () => {
    const check = async (address: string) => {
      const { stdout } = await run('sh', [
        '-c',
        'ssh-keyscan -t ed25519 -p "$1" "$2" 2>/dev/null | ssh-keygen -lf -',
        'sh',
        String(lab.port),
        address,
      ]);
      expect(stdout).toContain(lab.hostKeyFingerprint);
      const known = await run('ssh-keygen', ['-F', `[${address}]:${lab.port}`, '-f', lab.knownHostsPath]);
      expect(known.stdout).toContain('ssh-ed25519');
    };
    await Promise.all(NODES.map(check));
  });

  it('works with the OpenSSH client and strict host key checking (as ansible uses it)', async () => {
    const { stdout } = await run('ssh', [
      ...['-i', lab.clientKeyPath, '-p', String(lab.port), '-o', `UserKnownHostsFile=${lab.knownHostsPath}`],
      ...['-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', `${lab.user}@${NODES[1]}`],
      'echo "$LAB_NODE_ADDRESS"',
    ]);
    expect(stdout).toBe(`${NODES[1]}\n`);
  });

  it('logs commands in order', async () => {
    await on(NODES[0]!, ['echo', 'first']);
    await on(NODES[0]!, ['echo', "multi\nline 'quoted'"]);
    const commands = await lab.commands();
    expect(commands.slice(-2)).toEqual(['echo first', `echo 'multi\nline '\\''quoted'\\'''`]);
  });

  it('rotates the host key of one address only: the other nodes keep theirs (last, it changes the lab)', async () => {
    const before = lab.hostKeyFingerprint;
    const rotated = await lab.rotateHostKey(NODES[2]);
    expect(rotated).not.toBe(before);
    expect((await shell.probeHostKey({ host: NODES[2]!, port: lab.port }, 5_000)).fingerprint).toBe(rotated);
    expect((await shell.probeHostKey({ host: NODES[0]!, port: lab.port }, 5_000)).fingerprint).toBe(before);
    expect(await on(NODES[0]!, ['echo', 'still trusted'])).toMatchObject({ exitCode: 0 });
  });

  it('kill() takes the listener down; stop() still cleans up', async () => {
    const second = await startSshd();
    await second.kill();
    await waitFor('the port to refuse connections', () => refuses(second.port));
    await second.stop();
  });
});

function refuses(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', () => resolve(true));
  });
}
