import { defineConfig } from 'vitest/config';
import { labMs } from './test/support/lab-time.js';
import { LongestFirstSequencer } from './test/support/longest-first-sequencer.js';

/**
 * Projects, so the fast loop (`npm run test:unit`) never waits on the lab:
 * - `unit`: pure in-process tests (fakes of the ports, no child process, no socket, no Redis, no
 *   sshd). Under 30 s on two cores.
 * - `lab`: everything that starts something real (sshd, ansible-playbook, kube-sim, fake Slack,
 *   Redis, the bot process), and `lab-alone` for the few that time the bot (see LAB_ALONE).
 * The rule: a test that starts a process, opens a socket or needs Redis lives in one of LAB_FOLDERS,
 * or, elsewhere, is named `*.lab.test.ts`. Everything else is a unit test.
 */
const LAB_FOLDERS = ['integration', 'e2e', 'reliability', 'lab', 'ssh', 'kube'];
const LAB_TESTS = [`test/{${LAB_FOLDERS.join(',')}}/**/*.test.ts`, 'test/**/*.lab.test.ts'];
/**
 * Lab files that time the bot under a burst (200 commands acked within 3 s) or time a browser (a
 * 100k-line job page interactive within 2 s): run alone, after the others, since a neighbour's
 * ansible run on the same two cores would be measured too.
 */
const LAB_ALONE = ['test/reliability/slack-requests.test.ts', 'test/web/job-page-scale.lab.test.ts'];
/** The processes lab tests start run `src` compiled once per run, not through tsx at every start. */
const BUILD_FOR_TESTS = 'test/support/build-for-tests.ts';

export default defineConfig({
  test: {
    // The lab's time scale (test/support/lab-time.ts) stretches these with every wait inside them.
    testTimeout: labMs(60_000),
    hookTimeout: labMs(60_000),
    pool: 'forks',
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: LAB_TESTS,
          // Unit tests hold no state between files, so one module graph per worker is enough: loading
          // the sources again for every file was most of the project's time.
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'lab',
          include: LAB_TESTS,
          exclude: LAB_ALONE,
          // Each lab file spends most of its time waiting (on ansible-playbook, on kube-sim's delays,
          // on fake Slack's rate limits, on approvals), so four files at once fill two cores better
          // than vitest's default of one worker per core less one: a quiet run of three used 1.3 of
          // the two cores. Each has its own ports, lab directory and Redis prefix.
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
          globalSetup: [BUILD_FOR_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'lab-alone',
          include: LAB_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          globalSetup: [BUILD_FOR_TESTS],
        },
      },
    ],
  },
});
