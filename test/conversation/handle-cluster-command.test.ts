import { describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { handleClusterCommand } from '../../src/conversation/handle-cluster-command.js';
import type { Refusal } from '../../src/service/index.js';
import { describeReply } from '../../src/wording/describe-reply.js';
import { helpText } from '../../src/wording/help-text.js';
import { loadExampleWorld } from '../support/example-world.js';
import { createFakeClusterService } from '../support/fake-cluster-service.js';

const HELP_TEXT = helpText(MRKDWN);

const record = {
  id: 'job-4',
  number: 4,
  command: { verb: 'cilium', cluster: 'dev' },
  requestedBy: 'U0ALICE',
  channel: 'C0OPS',
  createdAt: 0,
} as const;

describe('handleClusterCommand', () => {
  it('runs the line through the verbs as the person who typed it, and answers in mrkdwn', async () => {
    const { service, calls } = createFakeClusterService();
    const reply = await handleClusterCommand(
      { text: 'up dev --queue', userId: 'U0BOB', channelId: 'C0OPS' },
      { marks: MRKDWN, service, world: await loadExampleWorld() },
    );
    expect(reply.text).toBe('Queued as job #1: `up`. Progress goes into its thread.');
    // The command is admitted (rate limit, dedup) in the job's own write, so by submit.
    expect(calls.map((call) => call.op)).toEqual(['admit', 'submit']);
    expect(calls[1]!.args).toEqual([
      { userId: 'U0BOB', channelId: 'C0OPS' },
      { verb: 'up', cluster: 'dev' },
      true,
      { userId: 'U0BOB', deliveryKey: undefined },
    ]);
  });
});

describe('describeReply', () => {
  it('words the answers', () => {
    expect(describeReply({ kind: 'help' }, MRKDWN)).toBe(HELP_TEXT);
    expect(
      describeReply(
        {
          kind: 'queued',
          jobId: 'job-7',
          number: 7,
          cluster: 'dev',
          command: 'up dev',
          position: 2,
        },
        MRKDWN,
      ),
    ).toBe(
      'Queued as job #7: `up dev`. It waits for dev (position 2 in line). Progress goes into its thread.',
    );
    expect(describeReply({ kind: 'planned', steps: '1. <x>', number: 3 }, MRKDWN)).toBe(
      '```1. &lt;x&gt;```\nChecking it against the infra repo and the cluster as job #3 (nothing is run): its thread lists every refusal it would meet.',
    );
    expect(describeReply({ kind: 'cancelling', number: 3 }, MRKDWN)).toBe(
      'Cancelling job #3; its thread will say when it stopped.',
    );
    expect(describeReply({ kind: 'jobs', jobs: [] }, MRKDWN)).toBe('No jobs yet.');
    expect(
      describeReply(
        {
          kind: 'jobs',
          jobs: [
            { id: 'job-4', record, progress: { kind: 'step', index: 2, of: 5, waiting: true } },
            {
              id: 'job-3',
              record: { ...record, number: 3 },
              progress: { kind: 'ended', outcome: 'succeeded', tookMs: 65_000 },
            },
          ],
        },
        MRKDWN,
      ),
    ).toBe(
      'Recent jobs:\n• job #4 (cilium dev) by <@U0ALICE>: step 2/5 (waiting for approval)\n• job #3 (cilium dev) by <@U0ALICE>: succeeded in 1m5s',
    );
    expect(describeReply({ kind: 'audit', entries: [] }, MRKDWN)).toBe('The audit trail is empty.');
  });

  it('words the status of each cluster', () => {
    expect(
      describeReply(
        {
          kind: 'status',
          clusters: [
            {
              cluster: 'dev',
              holder: { id: 'job-4', record, progress: { kind: 'queued' } },
              waiting: ['job-5', 'job-6'],
              open: [{ id: 'job-4', record, progress: { kind: 'queued' } }],
              lastVerify: {
                outcome: 'passed',
                at: Date.UTC(2026, 0, 2, 3, 4),
                jobNumber: 0,
                summary: '<all> ok',
              },
            },
            { cluster: 'prod', waiting: [], open: [] },
          ],
        },
        MRKDWN,
      ),
    ).toBe(
      [
        '*dev*',
        '• lease: job #4 (cilium dev) by <@U0ALICE>, queued',
        '• queued behind it: #5, #6',
        '• job #4 (cilium dev) by <@U0ALICE>: queued',
        '• last verify: passed at 2026-01-02 03:04 UTC (scheduled): &lt;all&gt; ok',
        '',
        '*prod*',
        '• lease: free',
        '• last verify: none yet',
      ].join('\n'),
    );
  });

  it.each<[Refusal, string]>([
    [
      { code: 'RATE_LIMITED', perMinute: 20 },
      '⏳ Slow down: at most 20 /cluster commands a minute per person. Nothing was run; try again in a minute.',
    ],
    [
      { code: 'NOT_OPERATOR', user: 'U0DAVE', cluster: 'prod' },
      '⛔ <@U0DAVE> is not an operator of prod (clusters.prod.operators, else access.operators in its config), so nothing was run.',
    ],
    [
      { code: 'NOT_OPERATOR', user: 'U0DAVE' },
      '⛔ You are not an operator of cluster-bot (access.operators in its config), so nothing was run.',
    ],
    [
      { code: 'WRONG_CHANNEL', channel: 'C0OPS', allowed: ['C0PROD'], cluster: 'prod' },
      '⛔ /cluster commands for prod are not accepted in <#C0OPS>. Use <#C0PROD>.',
    ],
    [
      { code: 'WRONG_CHANNEL', channel: 'C0X', allowed: ['C0OPS', 'C0PROD'] },
      '⛔ /cluster is not accepted in this channel. Use <#C0OPS>, <#C0PROD>.',
    ],
    [
      { code: 'COMMAND_INVALID', message: 'unknown cluster "<!here>"', suggestion: 'dev' },
      '⛔ unknown cluster "&lt;!here&gt;". Did you mean `dev`? Nothing was run.',
    ],
    [
      { code: 'UNKNOWN_VERB', verb: 'stauts', suggestion: 'status prod' },
      `⛔ unknown command "stauts". Did you mean \`status prod\`? Nothing was run.\n\n${HELP_TEXT}`,
    ],
    [
      { code: 'USAGE', verb: 'status', clusters: ['dev', 'prod'] },
      '⛔ status takes an optional cluster (dev, prod). Nothing was run.',
    ],
    [
      { code: 'USAGE', verb: 'audit', max: 50 },
      '⛔ audit takes an optional count from 1 to 50. Nothing was run.',
    ],
    [{ code: 'USAGE', verb: 'cancel' }, '⛔ cancel takes a job number, e.g. `cancel 12`. Nothing was run.'],
    [{ code: 'PLAN_INVALID', message: 'unknown cluster <x>' }, '⛔ unknown cluster &lt;x&gt;'],
    [
      { code: 'NOT_QUEUED', command: 'up dev' },
      '⚠️ Could not queue `up dev`: the job queue (Redis) did not take it. Nothing was started; try again.',
    ],
    [
      {
        code: 'BUSY',
        cluster: 'dev',
        holder: { id: 'job-4', record, progress: { kind: 'step', index: 1, of: 3, waiting: false } },
        command: 'up dev',
      },
      '⛔ dev is busy: job #4 (cilium dev) by <@U0ALICE>, step 1/3. Nothing was run; add `--queue` to run `up dev` after it.',
    ],
    [
      { code: 'BUSY', cluster: 'dev', holder: { id: 'unknown' }, command: 'up dev' },
      '⛔ dev is busy: job unknown. Nothing was run; add `--queue` to run `up dev` after it.',
    ],
    [{ code: 'NO_SUCH_JOB', number: '12' }, '⛔ there is no job #12. Nothing was run.'],
    [
      { code: 'JOB_ENDED', number: 3, outcome: 'failed' },
      'Job #3 already ended (failed); nothing to cancel.',
    ],
    [
      { code: 'NOT_CANCELLER', cluster: 'dev', number: 3 },
      '⛔ Only the requester or an approver of dev may cancel job #3.',
    ],
    [{ code: 'NO_SUCH_APPROVAL' }, '⛔ This button does not match a pending approval; nothing changed.'],
    [
      { code: 'CLICK_REFUSED', reason: 'you are not an approver' },
      '⛔ you are not an approver; nothing changed.',
    ],
  ])('words %o', (refusal, text) => {
    expect(describeReply(refusal, MRKDWN)).toBe(text);
  });
});
