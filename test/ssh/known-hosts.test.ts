import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOfKey } from '../../src/ssh/fingerprint-of-key.js';
import { findKnownHostKeys } from '../../src/ssh/known-hosts.js';

const run = promisify(execFile);
const KEY_A = 'AAAAC3NzaC1lZDI1NTE5AAAAIBfTc3nX8aTnuHZ0gHhwDYFi0ehzIy/0Pq/UkJ4LSvfx';
const KEY_B = 'AAAAC3NzaC1lZDI1NTE5AAAAIG0JdWSX9dWI9RBSgXF4HE6vB0bOVmFAX0GHV7qXT6gW';
const fingerprint = (key: string) => fingerprintOfKey(Buffer.from(key, 'base64'));
const fingerprints = (text: string, host: string, port: number) =>
  findKnownHostKeys(text, host, port).map((key) => key.fingerprint);

describe('findKnownHostKeys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'known-hosts-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('matches [host]:port for other ports and the bare host for port 22', () => {
    const text = `[127.0.0.11]:2222 ssh-ed25519 ${KEY_A}\n127.0.0.11 ssh-ed25519 ${KEY_B} comment\n`;
    expect(fingerprints(text, '127.0.0.11', 2222)).toEqual([fingerprint(KEY_A)]);
    expect(fingerprints(text, '127.0.0.11', 22)).toEqual([fingerprint(KEY_B)]);
    expect(fingerprints(text, '127.0.0.12', 2222)).toEqual([]);
  });

  it('reads comma lists, wildcards and negations, and skips comments and blank lines', () => {
    const text = [
      '# comment',
      '',
      `node-1,[127.0.0.13]:2200 ssh-ed25519 ${KEY_A}`,
      `*.lab,!bad.lab ssh-ed25519 ${KEY_B}`,
    ].join('\n');
    expect(fingerprints(text, '127.0.0.13', 2200)).toEqual([fingerprint(KEY_A)]);
    expect(fingerprints(text, 'node-1', 22)).toEqual([fingerprint(KEY_A)]);
    expect(fingerprints(text, 'good.lab', 22)).toEqual([fingerprint(KEY_B)]);
    expect(fingerprints(text, 'bad.lab', 22)).toEqual([]);
  });

  it('matches entries hashed by ssh-keygen -H', async () => {
    const file = join(dir, 'hashed');
    await writeFile(file, `[127.0.0.21]:2022 ssh-ed25519 ${KEY_A}\n127.0.0.22 ssh-ed25519 ${KEY_B}\n`);
    await run('ssh-keygen', ['-H', '-f', file]);
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^\|1\|/);
    expect(fingerprints(text, '127.0.0.21', 2022)).toEqual([fingerprint(KEY_A)]);
    expect(fingerprints(text, '127.0.0.22', 22)).toEqual([fingerprint(KEY_B)]);
    expect(fingerprints(text, '127.0.0.21', 22)).toEqual([]);
  });

  it('marks @revoked keys and ignores @cert-authority lines', () => {
    const text = `@revoked 127.0.0.1 ssh-ed25519 ${KEY_A}\n@cert-authority 127.0.0.1 ssh-ed25519 ${KEY_B}\n`;
    expect(findKnownHostKeys(text, '127.0.0.1', 22)).toEqual([
      { keyType: 'ssh-ed25519', fingerprint: fingerprint(KEY_A), revoked: true },
    ]);
  });
});
