import { describe, expect, it } from 'vitest';
import { finishForTerminal, terminalMarks } from '../../src/console/terminal-marks.js';
import { describeHome } from '../../src/wording/describe-home.js';
import { homeCluster } from '../support/home-cluster.js';

const PLAIN = { tty: false };
const MARKS = terminalMarks(PLAIN);

const dev = homeCluster('dev', {
  holder: {
    id: 'job-3',
    record: {
      id: 'job-3',
      number: 3,
      command: { verb: 'cilium', cluster: 'dev' },
      requestedBy: 'U0BOB',
      channel: 'C0OPS',
      createdAt: Date.UTC(2026, 10, 30, 21, 40),
    },
    progress: { kind: 'step', index: 2, of: 4, waiting: true },
  },
});

describe("the console's home", () => {
  it('prints the App Home overview as plain terminal text, with the job page link when there is one', () => {
    const text = finishForTerminal(
      describeHome({ kind: 'home', clusters: [dev] }, (id) => `https://bot.example/jobs/${id}`, MARKS),
      PLAIN,
    );
    expect(text).toBe(
      [
        'dev',
        'Lease: job #3 (cilium dev) by @U0BOB, step 2/4 (waiting for approval) job page (https://bot.example/jobs/job-3), since 2026-11-30 21:40 UTC',
        'Last verify: none yet',
        'Open alerts: none',
        'Verify now: `/cluster verify dev`',
      ].join('\n'),
    );
  });

  it('a refusal instead of cluster data for someone who is not an operator', () => {
    expect(describeHome({ code: 'NOT_OPERATOR', user: 'U0MALLORY' }, () => undefined, MARKS)).toMatch(
      /^⛔ You are not an operator of cluster-bot/,
    );
  });
});
