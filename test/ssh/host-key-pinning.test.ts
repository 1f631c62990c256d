import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isClusterBotError } from '../../src/errors.js';
import { createSshRemoteShell } from '../../src/ssh/create-ssh-remote-shell.js';
import { type SshdLab, startSshd } from '../lab/sshd.js';
import { labTarget } from './lab-target.js';

describe('host key pinning against a real sshd', () => {
  let lab: SshdLab;
  const shell = createSshRemoteShell();
  const [first, second] = ['127.0.0.41', '127.0.0.42'];

  beforeAll(async () => {
    lab = await startSshd({ addresses: [first!, second!] });
  });
  afterAll(async () => {
    await lab?.stop();
  });

  const acceptedLogins = async () =>
    (await readFile(join(lab.dir, 'sshd.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('Accepted publickey')).length;

  it('probes the host key without trusting it: the key is read, nobody logs in, nothing runs', async () => {
    const [commandsBefore, loginsBefore] = [(await lab.commands()).length, await acceptedLogins()];
    const [keyType, blob] = (await readFile(join(lab.dir, 'host_key.pub'), 'utf8')).trim().split(/\s+/);

    expect(await shell.probeHostKey({ host: second!, port: lab.port }, 5000)).toEqual({
      fingerprint: lab.hostKeyFingerprint,
      keyType,
      publicKey: blob,
    });
    expect((await lab.commands()).length).toBe(commandsBefore);
    expect(await acceptedLogins()).toBe(loginsBefore);
    // The same counters do move for a real login.
    await shell.exec(labTarget(lab, { hostKey: { fingerprint: lab.hostKeyFingerprint } }), {
      argv: ['true'],
      timeoutMs: 5000,
    });
    expect((await lab.commands()).length).toBe(commandsBefore + 1);
    expect(await acceptedLogins()).toBe(loginsBefore + 1);
  });

  // Every way a known_hosts pin can fail to vouch for the key refuses: there is no first-use trust.
  const unknownCases: [string, (path: string) => Promise<void>][] = [
    ['the known_hosts file does not exist', async () => undefined],
    ['the known_hosts file is empty', (path) => writeFile(path, '')],
    [
      'known_hosts has only comments and other hosts',
      (path) => writeFile(path, '# ops\n10.0.0.1 ssh-ed25519 AAAA\n'),
    ],
  ];
  it.each(unknownCases)(
    'refuses as SSH_HOST_KEY_UNKNOWN when %s, and runs nothing',
    async (_case, prepare) => {
      const path = join(lab.dir, `known_hosts_${Math.random().toString(36).slice(2)}`);
      await prepare(path);
      const commandsBefore = (await lab.commands()).length;
      await expect(
        shell.exec(labTarget(lab, { hostKey: { knownHostsPath: path } }), {
          argv: ['true'],
          timeoutMs: 5000,
        }),
      ).rejects.toMatchObject({
        code: 'SSH_HOST_KEY_UNKNOWN',
        details: { presented: lab.hostKeyFingerprint },
      });
      expect((await lab.commands()).length).toBe(commandsBefore);
    },
  );

  it('refuses as SSH_HOST_KEY_UNKNOWN when known_hosts cannot be read', async () => {
    // A directory where the file should be: readable as a path, not as a file.
    await expect(
      shell.exec(labTarget(lab, { hostKey: { knownHostsPath: lab.dir } }), {
        argv: ['true'],
        timeoutMs: 5000,
      }),
    ).rejects.toMatchObject({ code: 'SSH_HOST_KEY_UNKNOWN', message: expect.stringContaining(lab.dir) });
  });

  it('refuses as SSH_HOST_KEY_MISMATCH when the only entry for the key is @revoked', async () => {
    const revoked = join(lab.dir, 'known_hosts_revoked');
    const [firstLine] = (await readFile(lab.knownHostsPath, 'utf8')).split('\n');
    await writeFile(revoked, `@revoked ${firstLine}\n`);
    await expect(
      shell.exec(labTarget(lab, { hostKey: { knownHostsPath: revoked } }), {
        argv: ['true'],
        timeoutMs: 5000,
      }),
    ).rejects.toMatchObject({
      code: 'SSH_HOST_KEY_MISMATCH',
      message: expect.stringContaining('only revoked keys'),
    });
  });

  it('accepts a key pinned by fingerprint, and refuses another fingerprint naming both', async () => {
    const pinned = labTarget(lab, { hostKey: { fingerprint: lab.hostKeyFingerprint } });
    expect((await shell.exec(pinned, { argv: ['true'], timeoutMs: 5000 })).exitCode).toBe(0);

    const wrong = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const error = await shell
      .exec(labTarget(lab, { hostKey: { fingerprint: wrong } }), { argv: ['true'], timeoutMs: 5000 })
      .catch((caught: unknown) => caught);
    expect(isClusterBotError(error, 'SSH_HOST_KEY_MISMATCH')).toBe(true);
    expect((error as Error).message).toContain(wrong);
    expect((error as Error).message).toContain(lab.hostKeyFingerprint);
  });

  it('refuses a host missing from known_hosts, naming the key it presented', async () => {
    const onlyFirst = join(lab.dir, 'known_hosts_first_only');
    const [firstLine] = (await readFile(lab.knownHostsPath, 'utf8')).split('\n');
    expect(firstLine).toContain(`[${first}]:${lab.port} ssh-ed25519 `);
    await writeFile(onlyFirst, `${firstLine}\n`);
    const target = labTarget(lab, {
      label: 'k3s-dev-2',
      host: second!,
      hostKey: { knownHostsPath: onlyFirst },
    });
    await expect(shell.exec(target, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'SSH_HOST_KEY_UNKNOWN',
      message: expect.stringContaining(lab.hostKeyFingerprint),
      details: { host: second, presented: lab.hostKeyFingerprint },
    });
  });

  it("takes the bot's kept pin, and only it, while known_hosts does not hold it; once it does, the file decides", async () => {
    const path = join(lab.dir, 'known_hosts_kept');
    const current = await readFile(lab.knownHostsPath, 'utf8');
    await writeFile(path, current);
    const withKept = (keptFingerprint: string) =>
      labTarget(lab, { hostKey: { knownHostsPath: path, keptFingerprint } });
    const newer = 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    // The file holds the key presented now, but the bot kept a newer one: the file's key is the old one, refused.
    await expect(shell.exec(withKept(newer), { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'SSH_HOST_KEY_MISMATCH',
      message: expect.stringContaining(`the bot's pin since its rebuild) does not match: expected ${newer}`),
    });
    // The kept pin is the presented key, with known_hosts holding another (old) one: taken.
    await writeFile(path, `[${first}]:${lab.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9sZC1rZXk\n`);
    const kept = withKept(lab.hostKeyFingerprint);
    expect((await shell.exec(kept, { argv: ['true'], timeoutMs: 5000 })).exitCode).toBe(0);
    // Once the file revokes it, the file decides.
    await writeFile(path, `@revoked ${current.split('\n')[0]}\n`);
    await expect(shell.exec(kept, { argv: ['true'], timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'SSH_HOST_KEY_MISMATCH',
    });
  });

  it('refuses a rebuilt node (new host key) until its new fingerprint is pinned', async () => {
    const oldFingerprint = lab.hostKeyFingerprint;
    const newFingerprint = await lab.rotateHostKey();
    expect(newFingerprint).not.toBe(oldFingerprint);

    const target = labTarget(lab, { label: 'k3s-dev-1' });
    const error = await shell
      .exec(target, { argv: ['true'], timeoutMs: 5000 })
      .catch((caught: unknown) => caught);
    expect(isClusterBotError(error, 'SSH_HOST_KEY_MISMATCH')).toBe(true);
    const { message, details } = error as Error & { details: Record<string, unknown> };
    expect(message).toContain(`k3s-dev-1 (${first}:${lab.port})`);
    expect(message).toContain(`expected ${oldFingerprint}`);
    expect(message).toContain(`presented ${newFingerprint}`);
    expect(details).toMatchObject({ expected: [oldFingerprint], presented: newFingerprint });

    expect((await shell.probeHostKey({ host: first!, port: lab.port }, 5000)).fingerprint).toBe(
      newFingerprint,
    );
    const repinned = labTarget(lab, { hostKey: { fingerprint: newFingerprint } });
    expect((await shell.exec(repinned, { argv: ['true'], timeoutMs: 5000 })).exitCode).toBe(0);
  });
});
