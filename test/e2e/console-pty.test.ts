import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type LabWorld, startLabWorld } from '../support/lab-world.js';
import { startConsolePty } from '../support/start-console-pty.js';

let lab: LabWorld | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const PROMPT = 'cluster-bot> ';
const HEADER = 'up dev · job #1 · asked by @U0BOB';
const STEP = /^(\S+) (\d+)\. /;

/** Where in the terminal's text the line that `pattern` (starting at a newline) finds begins, once it shows. */
async function lineStart(tty: ReturnType<typeof startConsolePty>, pattern: RegExp): Promise<number> {
  const match = await tty.waitFor(pattern, { timeoutMs: 15_000 });
  return match.index!;
}

/** Each print of the job's board (its header, then its status and step lines) as the terminal shows it. */
function boardPrints(lines: readonly string[]) {
  const prints: { status?: string; steps: Map<string, string> }[] = [];
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith(HEADER)) continue;
    const print: { status?: string; steps: Map<string, string> } = { steps: new Map() };
    for (const next of lines.slice(index + 1)) {
      const step = STEP.exec(next);
      if (next.startsWith('Status:') && print.status === undefined && print.steps.size === 0)
        print.status = next;
      else if (step) print.steps.set(step[2]!, step[1]!);
      else break;
    }
    prints.push(print);
  }
  return prints;
}

// up dev runs every playbook of the bring-up with real ansible (minutes on two busy cores); its
// waits: the first approval (120 s), the second (120 s), the end (180 s).
describe('the console on a pseudo-terminal, as `npm run demo` runs it', { timeout: labMs(480_000) }, () => {
  it('up dev with approvals: the board printed only when its state changes, approve N says what it answers, a line being typed survives output', async () => {
    lab = await startLabWorld();
    const tty = startConsolePty({ ...lab.consoleEnv(), CONSOLE_USER: 'U0BOB', LOG_LEVEL: 'warn' });
    lab.onStop(() => tty.stop());
    await tty.waitFor(new RegExp(`cluster-bot console as U0BOB[\\s\\S]*\\n${PROMPT}$`), {
      timeoutMs: 60_000,
    });

    tty.keys('/cluster up dev\r');
    const start = (await lineStart(tty, /\ncluster-bot> \/cluster up dev\n/)) + 1;
    await tty.waitFor(new RegExp(HEADER), { from: start });
    // A line half typed while the job prints: each print goes above it and it is drawn again under
    // it (the terminal's last line is always the prompt and that text), and it runs whole.
    tty.keys('/cluster sta');
    const typed = await lineStart(tty, /\ncluster-bot> \/cluster sta$/);
    await tty.waitFor(/^\n(?!cluster-bot>)[^\n]*\n(?:[^\n]*\n)*cluster-bot> \/cluster sta$/, {
      from: typed,
      timeoutMs: 60_000,
    });
    tty.keys('tus dev\r');
    await tty.waitFor(/\ncluster-bot> \/cluster status dev\n[\s\S]*• lease: job #1 \(up dev\) by @U0BOB/, {
      from: typed,
    });

    for (const [number, title] of [
      ['1', 'cilium.yml'],
      ['2', 'flux-bootstrap.yml'],
    ] as const) {
      await tty.waitFor(new RegExp(`answer with: approve ${number} .*\\(${number} = job #1, ${title}\\)`), {
        from: start,
        timeoutMs: 120_000,
      });
      const at = tty.text().length;
      tty.keys(`approve ${number}\r`);
      await tty.waitFor(new RegExp(`approve ${number} = job #1, ${title}\\n`), {
        from: at,
        timeoutMs: 15_000,
      });
    }
    await tty.waitFor(new RegExp(`${HEADER}\\nStatus: ✅ succeeded`), { from: start, timeoutMs: 180_000 });

    const lines = tty.text().slice(start).split('\n');
    const prints = boardPrints(lines);
    // Each print shows a new status or at least one step in a new state: never a progress tick.
    const states = new Map<string, string>();
    let status: string | undefined;
    const repeats = prints.filter((print) => {
      const moved = print.status !== undefined && print.status !== status;
      const changed = [...print.steps].some(([step, state]) => states.get(step) !== state);
      if (print.status !== undefined) status = print.status;
      for (const [step, state] of print.steps) states.set(step, state);
      return !moved && !changed;
    });
    expect(repeats).toEqual([]);
    expect(prints.length).toBeGreaterThan(1);
    process.stdout.write(
      `console-pty: one up dev printed the board ${prints.length} times, ${lines.length} lines\n`,
    );

    tty.keys('quit\r');
    expect(await tty.exited).toBe(0);
  });
});
