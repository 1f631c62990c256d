import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type LabWorld, startLabWorld } from '../support/lab-world.js';
import { startConsoleProcess } from '../support/start-console-process.js';

let lab: LabWorld | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

describe('console mode: no Slack tokens, a terminal instead', { timeout: labMs(180_000) }, () => {
  it('plans, verifies and runs an approved Cilium rollout from typed lines, under the same rules', async () => {
    lab = await startLabWorld();
    const console = startConsoleProcess({ ...lab.consoleEnv(), CONSOLE_USER: 'U0BOB' });
    lab.onStop(() => console.stop());
    await console.waitFor(/cluster-bot console as U0BOB/);

    console.type('/cluster plan up dev');
    await console.waitFor(/Plan for `up dev` on dev: 18 steps/);
    expect(console.stdout()).toContain('6. ⚠ cilium.yml → dev: all nodes');
    // The plan is then checked against the lab's repo as a read-only job: nothing in it is refused.
    await console.waitFor(/plan up dev · job #1 · asked by @U0BOB\nStatus: ✅ succeeded/, 120_000);

    console.type('/cluster verify dev');
    await console.waitFor(/verify dev · job #2 · asked by @U0BOB\nStatus: ✅ succeeded/);
    // Not a terminal (a pipe): plain text, mentions as typed, no escape codes, no mrkdwn stars.
    expect(console.stdout()).not.toContain('\u001b[');
    expect(console.stdout()).not.toMatch(/<@U0BOB>|\*verify dev\*/);

    console.type('home');
    await console.waitFor(
      /dev\nLease: free\nLast verify: ✅ succeeded \d{4}-\d\d-\d\d \d\d:\d\d UTC \(job #2\).*\nOpen alerts: none\nVerify now: `\/cluster verify dev`/,
    );
    await console.waitFor(/prod\nLease: free\n/);

    console.type('/cluster cilium dev');
    const [, number] = await console.waitFor(/answer with: approve (\d+)/);
    console.type(`approve ${number}`);
    await console.waitFor(/cilium dev · job #3 · asked by @U0BOB\nStatus: ✅ succeeded/, 120_000);

    console.type('/cluster frobnicate dev');
    await console.waitFor(/unknown command "frobnicate"/);
    console.type('quit');
    expect(await console.exited).toBe(0);
  });
});
