import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_BUILD_MAIN } from './build-for-tests.js';
import { labMs } from './lab-time.js';
import { REDIS_URL } from './redis-prefix.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm start` without Slack tokens: the console, typed into through stdin as a person would. */
export function startConsoleProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, [TEST_BUILD_MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', REDIS_URL, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    type: (line: string) => child.stdin.write(`${line}\n`),
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + labMs(timeoutMs);
      for (;;) {
        const match = stdout.match(pattern);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(
            `console never printed ${pattern}:\n${stdout}\n--- stderr ---\n${stderr.slice(-3000)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
