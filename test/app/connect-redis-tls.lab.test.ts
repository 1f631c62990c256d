import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/app/connect-redis.js';
import { freePort } from '../support/free-port.js';

let dir: string;
let server: ChildProcess;
let port: number;

/** A throwaway CA and a server certificate for 127.0.0.1, made with the openssl CLI. */
async function makeCertificates(into: string): Promise<void> {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: into, stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=lab-ca',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  await writeFile(join(into, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'ext',
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-redis-tls-'));
  await makeCertificates(dir);
  port = await freePort();
  server = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--tls-cert-file',
      'server.pem',
      '--tls-key-file',
      'server.key',
      '--tls-ca-cert-file',
      'ca.pem',
      '--tls-auth-clients',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { cwd: dir, stdio: 'ignore' },
  );
});

afterAll(async () => {
  server?.kill();
  await rm(dir, { recursive: true, force: true });
});

describe('Redis over TLS (rediss://)', () => {
  it('connects when the CA is given, and refuses a server it cannot verify', async () => {
    const env = {
      REDIS_URL: `rediss://127.0.0.1:${port}`,
      REDIS_SENTINELS: undefined,
      REDIS_SENTINEL_NAME: '',
    };
    const deadline = Date.now() + 10_000;
    for (;;) {
      const redis = connectRedis({ ...env, REDIS_CA_FILE: join(dir, 'ca.pem') });
      redis.on('error', () => undefined);
      const answer = await redis.ping().catch(() => undefined);
      redis.disconnect();
      if (answer === 'PONG') break;
      if (Date.now() > deadline) throw new Error('TLS redis did not answer');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const untrusting = connectRedis({ ...env, REDIS_CA_FILE: undefined });
    const errors: string[] = [];
    untrusting.on('error', (error: Error) => errors.push(error.message));
    untrusting.options.maxRetriesPerRequest = 0;
    await expect(untrusting.ping()).rejects.toThrow();
    untrusting.disconnect();
    expect(errors.join('\n')).toMatch(/self.signed|unable to verify|certificate/i);
  });
});
