import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/app/connect-redis.js';
import { freePort } from '../support/free-port.js';
import { uniquePrefix } from '../support/redis-prefix.js';

let dir: string;
let sentinel: ChildProcess;
let port: number;
const prefix = uniquePrefix('sentinel');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-sentinel-'));
  port = await freePort();
  const config = join(dir, 'sentinel.conf');
  // Sentinel rewrites its config file, so it gets a fresh one in a temp dir.
  await writeFile(
    config,
    `port ${port}\nbind 127.0.0.1\nsentinel monitor ${prefix.prefix} 127.0.0.1 6379 1\n`,
  );
  sentinel = spawn('redis-server', [config, '--sentinel'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = connectRedis({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_SENTINELS: undefined,
      REDIS_SENTINEL_NAME: '',
    });
    probe.on('error', () => undefined);
    const answered = await probe.ping().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (answered) break;
    if (Date.now() > deadline) throw new Error('redis-sentinel did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  sentinel?.kill();
  await prefix.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('Redis connections', () => {
  it('finds the master through Sentinel and works with it', async () => {
    const redis = connectRedis({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_SENTINELS: `127.0.0.1:${port}`,
      REDIS_SENTINEL_NAME: prefix.prefix,
      REDIS_CA_FILE: undefined,
    });
    try {
      await redis.set(`${prefix.prefix}:hello`, 'through sentinel');
      expect(await redis.get(`${prefix.prefix}:hello`)).toBe('through sentinel');
      expect((await redis.role())[0]).toBe('master');
    } finally {
      redis.disconnect();
    }
  });
});
