import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsolePoster } from '../../src/console/create-console-poster.js';
import { createTerminalScreen } from '../../src/console/create-terminal-screen.js';
import { runConsole } from '../../src/console/run-console.js';
import type { MessagePoster } from '../../src/conversation/message-poster.js';
import type { ClusterService } from '../../src/service/index.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { homeCluster } from '../support/home-cluster.js';

interface SessionOptions {
  readonly jobPageUrl?: (id: string) => string | undefined;
  /** Whether the output is a terminal. */
  readonly tty?: boolean;
  /** What the threads posted before the first line was typed. */
  readonly before?: (poster: MessagePoster) => Promise<void>;
  /** The service's answers where they differ from the fake's. */
  readonly service?: Partial<ClusterService>;
}

/** Lines typed into the console, and everything it printed once they ran out. */
async function session(lines: string[], options: SessionOptions = {}) {
  const { jobPageUrl = () => undefined, tty = false, before } = options;
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk) => {
    printed += chunk;
  });
  const redact = (text: string) => text.replaceAll('hunter2', '[REDACTED]');
  const screen = createTerminalScreen(input, output, tty);
  const { poster, approval } = createConsolePoster(screen.print, redact, { tty });
  await before?.(poster);
  const { service, calls } = createFakeClusterService({
    home: async () => ({
      kind: 'home',
      clusters: [
        homeCluster('dev', {
          lastVerify: { outcome: 'failed', at: 0, jobNumber: 0, summary: 'token hunter2 leaked' },
        }),
      ],
    }),
    ...options.service,
  });
  const running = runConsole({
    world: await loadExampleWorld(),
    service,
    poster,
    approval,
    user: 'U0BOB',
    screen,
    style: { tty },
    jobPageUrl,
    redact,
  });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await running;
  return { printed, calls };
}

describe('runConsole', () => {
  it("prints a queued job's page link when there is a job page, and none when there is not", async () => {
    const { printed: withPage } = await session(['/cluster verify dev'], {
      jobPageUrl: (id) => `https://bot.example/jobs/${id}?t=x`,
    });
    expect(withPage).toContain(
      'Queued as job #1: `verify`. Progress goes into its thread.\nJob page: https://bot.example/jobs/job-1?t=x\n',
    );
    expect((await session(['/cluster verify dev'])).printed).not.toContain('Job page');
  });

  it('home prints the overview, redacted, in bold on a terminal', async () => {
    const { printed: plain } = await session(['home']);
    expect(plain).toContain(
      'dev\nLease: free\nLast verify: ❌ failed 1970-01-01 00:00 UTC (scheduled): token [REDACTED] leaked',
    );
    const { printed: tty } = await session(['home'], { tty: true });
    expect(tty).toContain('\u001b[1mdev\u001b[22m\n\u001b[1mLease:\u001b[22m free');
  });

  it('help shows what to type in place of each word, as the help says it (`up <cluster>`)', async () => {
    const { printed } = await session(['/cluster help']);
    expect(printed).toContain('• `up <cluster>`: bring-up');
    expect(printed).toContain('• `health <node|cluster>`: ');
  });

  it('prints the request a message asks approval for, numbers it, and approve N decides that approval on that message', async () => {
    const { printed, calls } = await session(['approve 1'], { before: askApproval });
    expect(printed).toContain('  ↳ Approve cilium.yml? `cilium dev`\n');
    expect(printed).toContain('answer with: approve 1   or: reject 1   (1 = job #4, cilium.yml)');
    expect(printed).toContain('approve 1 = job #4, cilium.yml');
    const decide = calls.find((call) => call.op === 'decide');
    expect(decide?.args.slice(0, 2)).toEqual([
      { userId: 'U0BOB', channelId: 'C0OPS' },
      { decision: 'approve', value: 'job-4.rollout.x', messageTs: 'console.1' },
    ]);
  });

  it("shows a foreign value's control characters instead of obeying them, on a path the marks do not mark, keeping its own colours", async () => {
    // A refusal's reason is worded as it came (no marks.text): here, what a host said about its key.
    const hostile = 'compare the host key \u001b[2J\u001b[H\u001b]0;owned\u0007 \u009b1;1H\u007f';
    const shown = 'compare the host key \\x1b[2J\\x1b[H\\x1b]0;owned\\x07 \\x9b1;1H\\x7f';
    for (const tty of [false, true]) {
      const { printed } = await session(['approve 1', 'home'], {
        tty,
        before: askApproval,
        service: { decide: async () => ({ code: 'CLICK_REFUSED', reason: hostile }) },
      });
      expect(printed).toContain(`⛔ ${shown}; nothing changed.`);
      for (const obeyed of ['\u001b[2J', '\u001b[H', '\u001b]0;', '\u0007', '\u009b', '\u007f']) {
        expect(printed).not.toContain(obeyed);
      }
      // The console's own styles stay: the home's failed verify in red on a terminal.
      if (tty) expect(printed).toContain('\u001b[31m❌\u001b[39m failed');
    }
  });
});

/** A thread's approval request, printed as number 1. */
async function askApproval(poster: MessagePoster): Promise<void> {
  await poster.post({
    channel: 'C0OPS',
    threadTs: '1.0',
    text: '⏸ approval needed for cilium.yml (job #4)',
    asks: {
      approvalId: 'job-4.rollout.x',
      title: 'job #4, cilium.yml',
      request: '*Approve cilium.yml?* `cilium dev`',
    },
  });
}
