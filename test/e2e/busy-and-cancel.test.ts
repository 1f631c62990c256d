import { afterEach, describe, expect, it } from 'vitest';
import type { FakeSlack } from '../lab/fake-slack/index.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';
import { waitFor } from '../support/wait-for.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const ephemeralAfter = (slack: FakeSlack, user: string, includes: string) =>
  slack.waitFor(() => slack.ephemerals.find((e) => e.user === user && e.text.includes(includes))?.text, {
    timeoutMs: 15_000,
    description: `ephemeral to ${user} with "${includes}"`,
  });

describe('one mutating job per cluster, status, cancel', { timeout: labMs(180_000) }, () => {
  it('refuses a second mutating job with who holds the cluster; --queue waits; verify and status always run', async () => {
    lab = await startSlackLab();
    const { slack, driver } = lab;
    await driver.slash('cilium dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    // The board says the job waits once its waiting step is recorded, which is what busy reads (the
    // request itself is posted a moment before).
    await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('*cilium dev*') && m.text.includes('waiting for approval')),
      { timeoutMs: 60_000, description: 'the board of cilium dev waiting for approval' },
    );

    await driver.slash('up dev', { userId: 'U0BOB', channelId: 'C0OPS' });
    expect(await ephemeralAfter(slack, 'U0BOB', 'busy')).toBe(
      '⛔ dev is busy: job #1 (cilium dev) by <@U0ALICE>, step 2/8 (waiting for approval). Nothing was run; add `--queue` to run `up dev` after it.',
    );
    await driver.slash('packages k3s-dev-2 --queue', { userId: 'U0BOB', channelId: 'C0OPS' });
    expect(await ephemeralAfter(slack, 'U0BOB', 'Queued as job')).toMatch(
      /^Queued as job #\d+: `packages k3s-dev-2`. It waits for dev \(position 1 in line\)/,
    );
    await driver.slash('verify dev', { userId: 'U0DAVE', channelId: 'C0OPS' });
    await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*verify dev*') && m.text.includes('succeeded')),
      {
        timeoutMs: 30_000,
        description: 'verify board succeeded',
      },
    );

    await driver.slash('status dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const status = await ephemeralAfter(slack, 'U0ALICE', '*dev*');
    expect(status).toContain('• lease: job #1 (cilium dev) by <@U0ALICE>, step 2/8 (waiting for approval)');
    expect(status).toMatch(/queued behind it: #\d+/);
    expect(status).toMatch(/last verify: succeeded at .* \(job #\d+\)/);

    await driver.slash('cancel 1', { userId: 'U0MALLORY', channelId: 'C0OPS' });
    await ephemeralAfter(slack, 'U0MALLORY', 'not an operator');
    await driver.slash('cancel 1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*cilium dev*') && m.text.includes('cancelled')),
      {
        timeoutMs: 30_000,
        description: 'cilium board cancelled',
      },
    );
    // The lease went to the queued job, which now runs.
    await slack.waitFor(
      () =>
        slack
          .messages('C0OPS')
          .find((m) => m.text.includes('*packages k3s-dev-2*') && m.text.includes('succeeded')),
      { timeoutMs: 60_000 },
    );
    await driver.slash('jobs', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const jobs = await ephemeralAfter(slack, 'U0ALICE', 'Recent jobs');
    expect(jobs).toMatch(/job #1 \(cilium dev\) by <@U0ALICE>: cancelled in \d/);
    expect(jobs).toMatch(/\(packages k3s-dev-2\) by <@U0BOB>: succeeded in \d/);

    await driver.slash('audit 20', { userId: 'U0BOB', channelId: 'C0OPS' });
    const audit = await ephemeralAfter(slack, 'U0BOB', 'Audit trail');
    expect(audit).toMatch(/<@U0ALICE> command \[#1\]: cilium dev/);
    expect(audit).toMatch(/<@U0BOB> refused: up dev: busy/);
    expect(audit).toMatch(/<@U0ALICE> cancel \[#1\]: cilium dev/);
    expect(audit).toMatch(/cluster-bot outcome \[#1\]: cancelled/);
    expect(audit).toMatch(/cluster-bot outcome \[#\d+\]: succeeded/);
  });

  it('cancel mid-playbook ends the remote command, releases the lease and says who cancelled', async () => {
    lab = await startSlackLab({ labVars: { lab_sleep_seconds: 120 } });
    const { slack, driver } = lab;
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const root = await slack.waitFor(
      () =>
        slack.messages('C0OPS').find((m) => m.text.includes('*packages k3s-dev-1*') && m.text.includes('⏳')),
      { timeoutMs: 30_000 },
    );
    await driver.slash('cancel 1', { userId: 'U0BOB', channelId: 'C0OPS' });
    const startedCancel = Date.now();
    // Ending a detached playbook is one more exec on the ops host (TERM to its group, KILL after the
    // grace) before the step fails; on a loaded machine that is seconds, never the playbook's 120.
    await slack.waitFor(() => slack.message('C0OPS', root.ts)?.text.includes('cancelled') || undefined, {
      timeoutMs: 45_000,
      description: 'the board showing cancelled',
    });
    expect(Date.now() - startedCancel).toBeLessThan(labMs(45_000));
    const thread = slack
      .replies('C0OPS', root.ts)
      .map((m) => m.text)
      .join('\n');
    expect(thread).toContain('🛑 cancelled by <@U0BOB>');
    // The job's SSH connections ended with it, the worker still running: none is left open, each
    // ended by the bot (a disconnect message), not dropped.
    const world = lab;
    const used = [...(await world.ops.botConnections()), ...(await world.nodes.botConnections())];
    expect(used.length).toBeGreaterThan(0);
    await waitFor('the cancelled job’s connections to close', async () => {
      const open = [...(await world.ops.openConnections()), ...(await world.nodes.openConnections())];
      const said = [
        ...(await world.ops.disconnectedByClient()),
        ...(await world.nodes.disconnectedByClient()),
      ];
      return used.every((each) => !open.includes(each.clientPort) && said.includes(each.clientPort));
    });
    await driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await ephemeralAfter(slack, 'U0ALICE', 'Queued as job #2');
  });
});
