import { describe, expect, it } from 'vitest';
import { handleRerunClick } from '../../src/bot/handle-rerun-click.js';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { renderBoard } from '../../src/bot/render-board.js';
import { RERUN_ACTION, rerunOffer } from '../../src/bot/rerun-offer.js';
import type { BoardState, BoardStep, JobThread } from '../../src/jobs/ports/job-thread.js';
import { describeRefusal } from '../../src/wording/describe-refusal.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';
import { createRecordingPoster } from '../support/recording-poster.js';

/** A board step; `flags` as the plan made it: `carry` a re-run may skip it, `⚠` it is approved first. */
const step = (
  id: string,
  title: string,
  status: BoardStep['status'],
  detail?: string,
  flags = '',
): BoardStep => ({
  id,
  title,
  target: 'dev: all nodes',
  disruptive: flags.includes('⚠'),
  carryOver: flags.includes('carry'),
  status,
  detail,
});

function thread(board: Partial<BoardState>): JobThread {
  return {
    jobId: 'job-4',
    channel: 'C0OPS',
    alertsChannel: 'C0ALERTS',
    cluster: 'dev',
    threadTs: '1.1',
    opened: true,
    board: { title: 'up dev', jobNumber: 4, requestedBy: 'U0ALICE', steps: [], ...board },
  };
}

/** The offer under a failed `up dev` (job #4) whose board ended with these steps. */
const failedWith = (...steps: BoardStep[]) => rerunOffer(thread({ outcome: 'failed', steps }));

describe('the Re-run offer under a job that stopped', () => {
  it('a failed job offers Re-run from the step that failed, carrying the job', () => {
    const offer = failedWith(
      step('1-preconditions', 'preconditions', 'succeeded'),
      step('2-node-baseline', 'node-baseline.yml', 'skipped', 'done in #3', 'carry'),
      step('3-k3s', 'k3s.yml', 'failed', 'k3s.yml failed: k3s-dev-2: lab: etcd join refused', 'carry ⚠'),
      step('4-cilium', 'cilium.yml', 'skipped', 'not run', '⚠'),
    );
    expect(offer?.text).toMatch(
      /^🔁 Re-run from k3s\.yml\? A new job \(`\/cluster rerun 4`, an operator of dev\)/,
    );
    expect(offer?.text).toContain('skips node-baseline.yml (finished by this job) while the infra repo');
    expect(offer?.text).toContain('asks every approval anew');
    expect(JSON.stringify(offer?.blocks)).toContain(
      `"text":{"type":"plain_text","text":"Re-run from k3s.yml"},"action_id":"${RERUN_ACTION}","value":"job-4"`,
    );
  });

  it('a cancelled job offers it from the first step that did not run', () => {
    const offer = rerunOffer(
      thread({
        outcome: 'cancelled',
        steps: [
          step('1-preconditions', 'preconditions', 'succeeded'),
          step('2-node-baseline', 'node-baseline.yml', 'skipped', 'done in #3', 'carry'),
          step('3-k3s', 'k3s.yml', 'skipped', 'not run', 'carry'),
        ],
      }),
    );
    expect(offer?.text).toMatch(/^🔁 Re-run from k3s\.yml\?/);
  });

  it('an up that failed after its Cilium rollout offers it from cilium.yml: that one always runs again', () => {
    const offer = failedWith(
      step('1-preconditions', 'preconditions', 'succeeded'),
      step('2-node-baseline', 'node-baseline.yml', 'succeeded', 'ok', 'carry'),
      step('3-k3s', 'k3s.yml', 'succeeded', 'ok', 'carry ⚠'),
      step('5-cilium', 'cilium.yml', 'succeeded', 'ok', '⚠'),
      step('6-cilium-rollout', 'Cilium rollout', 'succeeded', 'ok'),
      step('9-flux-bootstrap', 'flux-bootstrap.yml', 'succeeded', 'ok', 'carry ⚠'),
      step('10-kube-vip', 'kube-vip.yml', 'failed', 'kube-vip.yml failed', 'carry'),
    );
    expect(offer?.text).toMatch(/^🔁 Re-run from cilium\.yml\?/);
    expect(offer?.text).toContain(
      'skips node-baseline.yml, k3s.yml, flux-bootstrap.yml (finished by this job)',
    );
  });

  it('a job whose plan has no step a re-run may skip (restore, upgrade, cilium, reprovision) offers to re-run the command whole', () => {
    const offer = rerunOffer(
      thread({
        title: 'restore dev cluster-bot-job-3-k3s-dev-1-1765000000',
        outcome: 'failed',
        steps: [
          step('1-preconditions', 'preconditions', 'succeeded'),
          step('2-approve', 'approve the restore', 'succeeded', 'ok', '⚠'),
          step('4-reset', 'restore the snapshot (cluster reset)', 'succeeded'),
          step('6-rejoin', 're-join k3s-dev-3', 'failed', 'k3s-dev-3 did not come back'),
        ],
      }),
    );
    expect(offer?.text).toBe(
      '🔁 Re-run `/cluster restore dev cluster-bot-job-3-k3s-dev-1-1765000000`? A new job (`/cluster rerun 4`, an operator of dev) ' +
        'runs every step again: nothing of #4 is skipped: restore always runs whole. Every approval is asked anew.',
    );
    expect(JSON.stringify(offer?.blocks)).toContain(
      `"text":{"type":"plain_text","text":"Re-run restore dev cluster-bot-job-3-k3s-dev-1-1765000000"}`,
    );
    expect(offer?.text).not.toContain('re-join');
  });

  it('a job that succeeded, was rejected or expired, or a plan, offers none', () => {
    const steps = [step('1-preconditions', 'preconditions', 'failed')];
    for (const outcome of ['succeeded', 'rejected', 'expired'] as const)
      expect(rerunOffer(thread({ outcome, steps }))).toBeUndefined();
    expect(rerunOffer(thread({ title: 'plan up dev', outcome: 'failed', steps }))).toBeUndefined();
    expect(rerunOffer(thread({ steps }))).toBeUndefined();
  });
});

describe('a re-run on its board', () => {
  it('names the job it re-runs, linked to that thread, and shows the steps it skipped as done there', () => {
    const board: BoardState = {
      title: 'up dev',
      jobNumber: 5,
      requestedBy: 'U0BOB',
      rerunOf: { jobId: 'job-4', number: 4, channel: 'C0OPS' },
      steps: [step('2-node-baseline', 'node-baseline.yml', 'skipped', 'done in #4')],
    };
    const { text } = renderBoard(board, undefined, 'https://lab.slack.test/archives/C0OPS/p11');
    expect(text.split('\n')[0]).toBe(
      '*up dev* · job #5 · re-run of <https://lab.slack.test/archives/C0OPS/p11|#4> · asked by <@U0BOB>',
    );
    expect(text).toContain('⏭ 1. node-baseline.yml → dev: all nodes — done in #4');
    expect(renderBoard(board).text.split('\n')[0]).toBe(
      '*up dev* · job #5 · re-run of #4 · asked by <@U0BOB>',
    );
  });
});

describe('handleRerunClick', () => {
  const click = { userId: 'U0BOB', value: 'job-4', channel: 'C0OPS', threadTs: '1.1' };

  it('asks the service on behalf of the clicker and tells the failed job’s thread which job re-runs it', async () => {
    const { service, asked } = createFakeClusterService();
    const { poster, posts } = createRecordingPoster();
    const answer = await handleRerunClick(click, { service, poster });
    expect(asked()).toEqual([
      { op: 'rerun', args: [{ userId: 'U0BOB', channelId: 'C0OPS' }, { id: 'job-4' }] },
    ]);
    expect(answer).toBe('Queued as job #3: `up dev`. Progress goes into its thread.');
    expect(posts).toEqual([
      { channel: 'C0OPS', threadTs: '1.1', text: '🔁 <@U0BOB> asked to re-run this job: job #3 `up dev`.' },
    ]);
  });

  it('answers a refusal to the clicker alone, saying why, and posts nothing', async () => {
    const { service } = createFakeClusterService({
      rerun: async () => ({ code: 'RERUN_REFUSED', why: 'already-rerun', number: 4, rerun: 5 }),
    });
    const { poster, posts } = createRecordingPoster();
    expect(await handleRerunClick(click, { service, poster })).toBe(
      '⛔ Job #4 was re-run already (job #5); re-run that job if it failed too. Nothing more was run.',
    );
    expect(posts).toEqual([]);
  });

  it('words every refusal: unknown or expired, not ended, not failed, a plan', () => {
    expect(describeRefusal({ code: 'RERUN_REFUSED', why: 'no-such-job', number: '9' }, MRKDWN)).toBe(
      '⛔ There is no job #9 (never, or its record expired after the retention), so there is nothing to re-run; nothing was run.',
    );
    expect(describeRefusal({ code: 'RERUN_REFUSED', why: 'no-such-job' }, MRKDWN)).toBe(
      '⛔ This button does not belong to a job; nothing was run.',
    );
    expect(describeRefusal({ code: 'RERUN_REFUSED', why: 'not-ended', number: 4 }, MRKDWN)).toBe(
      '⛔ Job #4 has not ended; only a failed or cancelled job is re-run. Nothing was run.',
    );
    expect(
      describeRefusal({ code: 'RERUN_REFUSED', why: 'not-failed', number: 4, outcome: 'succeeded' }, MRKDWN),
    ).toBe(
      '⛔ Job #4 succeeded; only a failed or cancelled job is re-run. Nothing was run; ask for the command again to run it anew.',
    );
    expect(describeRefusal({ code: 'RERUN_REFUSED', why: 'plan-job', number: 4 }, MRKDWN)).toContain(
      'is a `plan`',
    );
  });
});
