import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { TEST_BUILD_MAIN } from './build-for-tests.js';
import { labMs } from './lab-time.js';
import { REDIS_URL } from './redis-prefix.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ESC = String.fromCharCode(27);
/** A CSI escape sequence (its parameters and final letter), a carriage return, or one character. */
const TOKEN = new RegExp(`${ESC}\\[([0-9;?]*)([A-Za-z])|\r|[^\r${ESC}]`, 'gu');

/**
 * What a terminal shows of raw output, line by line: each line drawn as a terminal draws it, so
 * readline's redraws and the console's prints above the prompt read as a person sees them. Of the
 * escape codes, those that move in or erase the line act (carriage return, column `G`, erase line
 * `K`, erase below `J`); colours and the rest draw nothing.
 */
export function terminalLines(raw: string): string[] {
  return raw.split('\n').map((line) => {
    const cells: string[] = [];
    let column = 0;
    for (const [token, parameter, command] of line.matchAll(TOKEN)) {
      if (token === '\r') column = 0;
      else if (command === 'G') column = Math.max(0, Number(parameter || '1') - 1);
      else if (command === 'K') cells.splice(parameter === '2' ? 0 : column);
      else if (command === 'J') cells.splice(column);
      else if (command === undefined) cells[column++] = token;
    }
    return Array.from(cells, (cell) => cell ?? ' ').join('');
  });
}

/**
 * The console (`npm start` without Slack tokens, as `npm run demo` runs it) on a pseudo-terminal,
 * typed into key by key: util-linux `script` gives it a pty (no native module), so it sees a TTY and
 * readline edits lines. `script` and the console each lead a process group of their own; `stop`
 * kills both, so a failed test leaves nothing running.
 */
export function startConsolePty(env: Record<string, string>) {
  // A fixed size (a pty made without a terminal behind it has none), then the console in its place.
  const command = `stty cols 160 rows 50 && exec '${process.execPath}' ${TEST_BUILD_MAIN}`;
  // -q no banner, -f flush each write, -e the command's exit code, -c the command; no typescript file.
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm', REDIS_URL, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let raw = '';
  child.stdout.on('data', (chunk) => {
    raw += chunk;
  });
  child.stderr.on('data', (chunk) => {
    raw += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const text = () => terminalLines(raw).join('\n');
  return {
    /** Raw keys: text, `\r` for Enter. */
    keys: (keys: string) => child.stdin.write(keys),
    /** Everything the terminal received, escape codes included. */
    raw: () => raw,
    /** What the terminal shows, as lines of text (see terminalLines). */
    text,
    exited,
    /** Waits until the shown text from offset `from` (an index into text()) matches. */
    async waitFor(pattern: RegExp, { from = 0, timeoutMs = 60_000 } = {}): Promise<RegExpMatchArray> {
      const deadline = Date.now() + labMs(timeoutMs);
      for (;;) {
        const match = text().slice(from).match(pattern);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the terminal never showed ${pattern}:\n${text().slice(-6000)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode !== null || child.pid === undefined) return;
      // The console runs in the session script opened on the pty, its own process group.
      const children = await readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').catch(
        () => '',
      );
      for (const pid of children.split(/\s+/).filter(Boolean)) killGroup(Number(pid));
      killGroup(child.pid);
      await exited;
    },
  };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
