import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { labMs } from './lab-time.js';

/** A redis-server of the test's own (AOF on), for cases that restart it; the shared one stays up. */
export async function startOwnRedis() {
  const dir = await mkdtemp(join(tmpdir(), 'cb-own-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + labMs(10_000);
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      const up = await probe.connect().then(
        () => probe.ping().then(() => true),
        () => false,
      );
      probe.disconnect();
      if (up) return;
      if (Date.now() > deadline) throw new Error('own redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = server;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // A paused server takes its SIGTERM only once it runs again.
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    /** Stops answering, its connections left open: a Redis hung, or cut off by the network. */
    pause() {
      server?.kill('SIGSTOP');
    },
    resume() {
      server?.kill('SIGCONT');
    },
    async restart() {
      await stop();
      await start();
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
