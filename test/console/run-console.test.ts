import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsolePoster } from '../../src/console/create-console-poster.js';
import { createTerminalScreen } from '../../src/console/create-terminal-screen.js';
import { runConsole } from '../../src/console/run-console.js';
import type { MessagePoster } from '../../src/conversation/message-poster.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { homeCluster } from '../support/home-cluster.js';

/** Lines typed into the console, and everything it printed once they ran out. */
async function session(
  lines: string[],
  jobPageUrl: (id: string) => string | undefined,
  tty = false,
  before?: (poster: MessagePoster) => Promise<void>,
) {
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
    const { printed: withPage } = await session(
      ['/cluster verify dev'],
      (id) => `https://bot.example/jobs/${id}?t=x`,
    );
    expect(withPage).toContain(
      'Queued as job #1: `verify`. Progress goes into its thread.\nJob page: https://bot.example/jobs/job-1?t=x\n',
    );
    expect((await session(['/cluster verify dev'], () => undefined)).printed).not.toContain('Job page');
  });

  it('home prints the overview, redacted, in bold on a terminal', async () => {
    const { printed: plain } = await session(['home'], () => undefined);
    expect(plain).toContain(
      'dev\nLease: free\nLast verify: ❌ failed 1970-01-01 00:00 UTC (scheduled): token [REDACTED] leaked',
    );
    const { printed: tty } = await session(['home'], () => undefined, true);
    expect(tty).toContain('\u001b[1mdev\u001b[22m\n\u001b[1mLease:\u001b[22m free');
  });

  it('help shows what to type in place of each word, as the help says it (`up <cluster>`)', async () => {
    const { printed } = await session(['/cluster help'], () => undefined);
    expect(printed).toContain('• `up <cluster>`: bring-up');
    expect(printed).toContain('• `health <node|cluster>`: ');
  });

  it('prints the request a message asks approval for, numbers it, and approve N decides that approval on that message', async () => {
    const { printed, calls } = await session(
      ['approve 1'],
      () => undefined,
      false,
      async (poster) => {
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
      },
    );
    expect(printed).toContain('  ↳ Approve cilium.yml? `cilium dev`\n');
    expect(printed).toContain('answer with: approve 1   or: reject 1   (1 = job #4, cilium.yml)');
    expect(printed).toContain('approve 1 = job #4, cilium.yml');
    const decide = calls.find((call) => call.op === 'decide');
    expect(decide?.args.slice(0, 2)).toEqual([
      { userId: 'U0BOB', channelId: 'C0OPS' },
      { decision: 'approve', value: 'job-4.rollout.x', messageTs: 'console.1' },
    ]);
  });
});
