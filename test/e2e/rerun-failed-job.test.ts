import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../lab/fake-slack/index.js';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

/**
 * Re-running a failed `up dev` with the real bot process, worker, sshd and ansible-playbook: after a
 * commit lands, the re-run runs every step and says why; at the same commit it skips the playbooks
 * the failed job finished, asks its approvals anew and finishes.
 */
const CILIUM_FAILS = {
  lab_fail: [{ task: 'Helm upgrade --install cilium', msg: 'lab: chart repository answered 503' }],
};

let lab: SlackLab;
beforeAll(async () => {
  lab = await startSlackLab({ labVars: CILIUM_FAILS });
}, labMs(120_000));
afterAll(() => lab?.stop());

const board = (number: number, status: string) =>
  lab.slack.waitFor(
    () =>
      lab.slack
        .messages('C0OPS')
        .find((m) => m.text.startsWith(`*up dev* · job #${number} `) && m.text.includes(`Status: ${status}`)),
    { timeoutMs: 240_000, description: `board of job #${number} showing ${status}` },
  );

const texts = (root: SlackMessage) => lab.slack.replies('C0OPS', root.ts).map((m) => m.text);

/** Approves the step's request in the thread of job #number, once it is asked there. */
async function approveIn(number: number, title: string, userId: string) {
  const root = await board(number, '');
  const request = await lab.slack.waitFor(
    () =>
      lab.slack
        .replies('C0OPS', root.ts)
        .find(
          (m) =>
            m.text.includes(`approval needed for ${title}`) &&
            JSON.stringify(lab.slack.message('C0OPS', m.ts)?.blocks ?? []).includes('"type":"button"'),
        ),
    { timeoutMs: 180_000, description: `approval request for ${title} in job #${number}` },
  );
  await lab.driver.click({
    channel: 'C0OPS',
    where: { ts: request.ts },
    button: { text: 'Approve' },
    userId,
  });
}

const ephemeralTo = (userId: string, includes: string) =>
  lab.slack.waitFor(
    () => lab.slack.ephemerals.find((e) => e.user === userId && e.text.includes(includes))?.text,
    { timeoutMs: 15_000, description: `${userId} told ${includes}` },
  );

describe('re-run a failed job from the step that failed', { timeout: labMs(900_000) }, () => {
  it('after a new commit the re-run starts from the beginning and says why; at the same commit it skips what was done, asks approvals anew and finishes', async () => {
    const { slack, driver, repo } = lab;
    const firstCommit = await repo.head();
    await driver.slash('up dev', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await approveIn(1, 'cilium.yml', 'U0BOB');
    const first = await board(1, '❌ failed');
    expect(first.text).toContain('❌ 6. cilium.yml');
    const offer = await slack.waitFor(
      () =>
        slack.replies('C0OPS', first.ts).find((m) => JSON.stringify(m.blocks ?? []).includes('Re-run from')),
      { timeoutMs: 15_000, description: 'the Re-run offer in the failed job’s thread' },
    );
    expect(offer.text).toMatch(/^🔁 Re-run from cilium\.yml\?/);
    const clickRerun = (userId: string) =>
      driver.click({
        channel: 'C0OPS',
        where: { ts: offer.ts },
        button: { text: 'Re-run from cilium.yml' },
        userId,
      });

    // A stranger's click queues nothing.
    await clickRerun('U0MALLORY');
    await ephemeralTo('U0MALLORY', 'You are not an operator of cluster-bot');

    // The repo moves: the re-run (Bob's click) runs every step, and its thread says why first.
    await repo.writeFile('platform/README.md', 'a change that lands between the job and its re-run\n');
    const moved = await repo.commit('docs: lands between the failed job and its re-run');
    await clickRerun('U0BOB');
    await ephemeralTo('U0BOB', 'Queued as job #2: `up dev`');
    await slack.waitFor(
      () => texts(first).find((t) => t === '🔁 <@U0BOB> asked to re-run this job: job #2 `up dev`.'),
      { timeoutMs: 15_000, description: 'the failed thread told of its re-run' },
    );
    // A second click, anyone's, queues nothing more.
    await clickRerun('U0ALICE');
    await ephemeralTo('U0ALICE', 'Job #1 was re-run already (job #2)');
    await driver.slash('rerun 2', { userId: 'U0ALICE', channelId: 'C0OPS' });
    await ephemeralTo('U0ALICE', 'Job #2 has not ended; only a failed or cancelled job is re-run.');

    // Asked anew (the approvals of #1 do not carry over), and every playbook runs again.
    await approveIn(2, 'cilium.yml', 'U0ALICE');
    const second = await board(2, '❌ failed');
    expect(second.text).toMatch(
      /^\*up dev\* · job #2 · re-run of <[^|]+\/archives\/C0OPS\/p\d+\|#1> · asked by <@U0BOB>/,
    );
    expect(second.text).not.toContain('done in #1');
    expect(second.text).toContain('✅ 2. node-baseline.yml');
    expect(texts(second)).toContain(
      `ℹ️ Re-run of #1: the infra repo moved from ${firstCommit.slice(0, 12)} (where node-baseline.yml ran in #1) to ${moved.slice(0, 12)}, so every step runs again.`,
    );

    // At the same commit, `/cluster rerun 2` skips what #2 did to the nodes and asks every approval again.
    await lab.setLab({});
    const runsBefore = (await lab.playbookRuns()).length;
    await driver.slash('rerun 2', { userId: 'U0ALICE', channelId: 'C0OPS' });
    // cilium.yml was approved in #2: its approval is asked again in #3's thread, as flux-bootstrap.yml's is.
    await approveIn(3, 'cilium.yml', 'U0BOB');
    await approveIn(3, 'flux-bootstrap.yml', 'U0BOB');
    const third = await board(3, '✅ succeeded');
    expect(third.text).toMatch(/^\*up dev\* · job #3 · re-run of <[^|]+\|#2> · asked by <@U0ALICE>/);
    // k3s.yml is marked ⚠ (approved on its first run or a change), skipped all the same: it does not run.
    for (const done of ['2. node-baseline.yml', '3. k3s.yml ⚠'])
      expect(third.text).toContain(`⏭ ${done} → dev: all nodes — done in #2`);
    for (const ran of ['1. preconditions', '5. Cilium preflight', '6. cilium.yml', '14. flux-bootstrap.yml'])
      expect(third.text).toContain(`✅ ${ran}`);
    expect(texts(third)).toContain(
      'ℹ️ Re-run of #2: every other step runs again, every approval is asked anew; ' +
        'node-baseline.yml, k3s.yml (done in #2) are skipped while the infra repo is still at the commit they ran at.',
    );
    const runs = (await lab.playbookRuns()).slice(runsBefore);
    expect(runs.some((run) => /playbooks\/(node-baseline|k3s)\.yml/.test(run))).toBe(false);
    expect(runs).toContainEqual(expect.stringContaining('playbooks/cilium.yml'));
    expect(runs).toContainEqual(expect.stringContaining('playbooks/flux-bootstrap.yml'));
    // Neither a succeeded job nor #2 again is re-run.
    await driver.slash('rerun 3', { userId: 'U0BOB', channelId: 'C0OPS' });
    await ephemeralTo('U0BOB', 'Job #3 succeeded; only a failed or cancelled job is re-run.');
  });
});
