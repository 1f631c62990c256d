import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_BUILD_MAIN } from './build-for-tests.js';
import { freePort } from './free-port.js';
import { labMs } from './lab-time.js';
import { REDIS_URL } from './redis-prefix.js';
import { START_FLAGS } from './start-flags.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BotProcess {
  readonly port: number;
  /** Where `/healthz`, `/readyz` and `/metrics` are served (OPS_PORT). */
  readonly opsPort: number;
  readonly eventsUrl: string;
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Starts the bot as its own process and waits for /healthz on its ops port (every role serves it): the
 * test build of `src` (test/support/build-for-tests.ts), or with `built` the compiled `dist/main.js`
 * exactly as `npm start` runs it (what the benchmark measures).
 */
export async function startBotProcess(
  env: Record<string, string>,
  options: { readonly built?: boolean } = {},
): Promise<BotProcess> {
  // A port picked free can still be taken before the bot binds it (a neighbour test's process): try others.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts(env, options);
    } catch (error) {
      if (attempt === 3 || !String((error as Error).message).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnFreePorts(
  env: Record<string, string>,
  options: { readonly built?: boolean },
): Promise<BotProcess> {
  const port = await freePort();
  const opsPort = await freePort();
  // Where the process binds (its HOST): the product's default, loopback, unless the test says.
  const host = env.HOST ?? '127.0.0.1';
  const entry = options.built ? [...START_FLAGS, 'dist/main.js'] : [TEST_BUILD_MAIN];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      REDIS_URL,
      LOG_LEVEL: 'info',
      PORT: String(port),
      OPS_PORT: String(opsPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + labMs(30_000);
  for (;;) {
    const healthy = await fetch(`http://${host}:${opsPort}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`bot did not start (exit ${child.exitCode}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    opsPort,
    eventsUrl: `http://${host}:${port}/slack/events`,
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
