import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { labMs } from './lab-time.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A command run on a pseudo-terminal, typed into key by key as a person would: util-linux
 * `script` gives it a pty (no native module), so the process sees a TTY on stdin and stdout,
 * readline edits lines and the output carries what a terminal would get (escape codes included).
 */
export function startConsolePty(argv: readonly string[], env: Record<string, string>) {
  const command = argv.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  // -q no banner, -f flush each write, -e the command's exit code, -c the command; no typescript file.
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk) => {
    screen += chunk;
  });
  child.stderr.on('data', (chunk) => {
    screen += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    /** Raw keys: text, `\r` for Enter, `\u001b[A` for the up arrow. */
    keys: (text: string) => child.stdin.write(text),
    /** Everything the terminal received so far, escape codes included. */
    screen: () => screen,
    exited,
    /** Waits until the output after `from` (an index into screen()) matches. */
    async waitFor(pattern: RegExp, { from = 0, timeoutMs = 60_000 } = {}): Promise<RegExpMatchArray> {
      const deadline = Date.now() + labMs(timeoutMs);
      for (;;) {
        const match = screen.slice(from).match(pattern);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the terminal never showed ${pattern}:\n${screen.slice(-6000)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        // script's child is in its own session on the pty: hanging the pty up ends it.
        child.kill('SIGHUP');
        await exited;
      }
    },
  };
}
