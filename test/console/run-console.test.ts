import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsolePoster } from '../../src/console/create-console-poster.js';
import { createTerminalScreen } from '../../src/console/create-terminal-screen.js';
import { runConsole } from '../../src/console/run-console.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { homeCluster } from '../support/home-cluster.js';

/** Lines typed into the console, and everything it printed once they ran out. */
async function session(lines: string[], jobPageUrl: (id: string) => string | undefined, tty = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk) => {
    printed += chunk;
  });
  const redact = (text: string) => text.replaceAll('hunter2', '[REDACTED]');
  const screen = createTerminalScreen(input, output, tty);
  const { poster, approval } = createConsolePoster(screen.print, redact, { tty });
  const { service } = createFakeClusterService({
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
  return printed;
}

describe('runConsole', () => {
  it("prints a queued job's page link when there is a job page, and none when there is not", async () => {
    const withPage = await session(['/cluster verify dev'], (id) => `https://bot.example/jobs/${id}?t=x`);
    expect(withPage).toContain(
      'Queued as job #1: `verify`. Progress goes into its thread.\nJob page: https://bot.example/jobs/job-1?t=x\n',
    );
    expect(await session(['/cluster verify dev'], () => undefined)).not.toContain('Job page');
  });

  it('home prints the overview, redacted, in bold on a terminal', async () => {
    const plain = await session(['home'], () => undefined);
    expect(plain).toContain(
      'dev\nLease: free\nLast verify: ❌ failed 1970-01-01 00:00 UTC (scheduled): token [REDACTED] leaked',
    );
    const tty = await session(['home'], () => undefined, true);
    expect(tty).toContain('\u001b[1mdev\u001b[22m\n\u001b[1mLease:\u001b[22m free');
  });
});
