import { describe, expect, it } from 'vitest';
import { type HomeOptions, renderHome } from '../../src/bot/render-home.js';
import type { HomeAnswer, HomeCluster, JobRecord } from '../../src/service/index.js';
import { validateBlocks } from '../lab/fake-slack/validate-blocks.js';
import { homeCluster } from '../support/home-cluster.js';

const AT = Date.UTC(2026, 10, 30, 21, 40);
const record = (number: number, verb: 'cilium' | 'verify', by: string): JobRecord => ({
  id: `job-${number}`,
  number,
  command: { verb, cluster: 'dev' },
  requestedBy: by,
  channel: 'C0OPS',
  createdAt: AT,
});

const dev: HomeCluster = {
  cluster: 'dev',
  holder: {
    id: 'job-3',
    record: record(3, 'cilium', 'U0BOB'),
    progress: { kind: 'step', index: 3, of: 5, waiting: true },
  },
  waiting: ['job-4'],
  open: [],
  lastVerify: {
    outcome: 'failed',
    at: AT,
    jobNumber: 2,
    summary: 'nodes Ready: 2/3 Ready (k3s-dev-2 NotReady)',
  },
  approvals: [
    {
      jobId: 'job-3',
      stepId: 'cilium',
      approvalId: 'a1',
      stepTitle: 'cilium.yml',
      approvals: [],
      required: 1,
      mayDecide: true,
    },
  ],
  queued: [{ id: 'job-4', record: record(4, 'verify', 'U0ALICE'), progress: { kind: 'queued' } }],
  alerts: [{ gate: 'nodes Ready', observed: '2/3 Ready', alertedAt: AT }],
  approvers: ['U0ALICE', 'S0PLATFORM'],
  requiredApprovals: 1,
};
const prod = homeCluster('prod', { approvers: ['U0ALICE'], requiredApprovals: 2 });

const options: HomeOptions = {
  jobPageUrl: (id) => `https://bot.example/jobs/${id}?exp=1&sig=t`,
  verifyChannel: () => 'C0OPS',
};
const texts = (data: HomeAnswer, with_: Partial<HomeOptions> = {}) =>
  JSON.stringify(renderHome(data, { ...options, ...with_ }).blocks);

describe('renderHome', () => {
  it('one section per cluster: the lease holder waiting for approval, who may approve, the line, last verify, alerts', () => {
    const view = renderHome({ kind: 'home', clusters: [dev, prod] }, options);
    expect(view.type).toBe('home');
    expect(validateBlocks(view.blocks as Record<string, unknown>[])).toBeUndefined();
    const [devText, prodText] = view.blocks
      .filter((block) => block.type === 'section')
      .map((block) => (block.text as { text: string }).text);
    expect(devText).toContain('*Lease:* job #3 (cilium dev) by <@U0BOB>, step 3/5 (waiting for approval)');
    expect(devText).toContain('<https://bot.example/jobs/job-3?exp=1&amp;sig=t|job page>, since <!date^');
    expect(devText).toContain(
      '*Waiting for approval:* job #3 at cilium.yml (1 needed; approvers: <@U0ALICE>, <!subteam^S0PLATFORM>). You may approve or reject it.',
    );
    expect(devText).toContain('*Queued behind it:* job #4 (verify dev) by <@U0ALICE>, queued');
    expect(devText).toMatch(
      /\*Last verify:\* ❌ failed <!date\^\d+\^[^|]+\|2026-11-30 21:40 UTC> \(job #2\): nodes Ready: 2\/3/,
    );
    expect(devText).toContain('⚠ nodes Ready: 2/3 Ready (since');
    expect(prodText).toBe('*Lease:* free\n*Last verify:* none yet\n*Open alerts:* none');
    const buttons = view.blocks.filter((block) => block.type === 'actions');
    expect(buttons.map((block) => (block.elements as { value: string }[])[0]!.value)).toEqual([
      'dev',
      'prod',
    ]);
    expect(texts({ kind: 'home', clusters: [dev] })).toContain('its thread goes to <#C0OPS>');
  });

  it('Approve and Reject of its own for each request in a thread that the viewer may decide, and a link to it', () => {
    const [waiting] = dev.approvals;
    const posted = { ...waiting!, message: { channel: 'C0OPS', ts: '1700000000.000100' } };
    const others = { ...posted, jobId: 'job-5', approvalId: 'a5', mayDecide: false };
    const notYetPosted = { ...waiting!, jobId: 'job-6', approvalId: 'a6' };
    const view = renderHome(
      { kind: 'home', clusters: [{ ...dev, approvals: [posted, others, notYetPosted] }] },
      { ...options, threadLink: (channel, ts) => `https://team.slack.test/archives/${channel}/p${ts}` },
    );
    expect(validateBlocks(view.blocks as Record<string, unknown>[])).toBeUndefined();
    const pairs = view.blocks
      .filter((block) => block.type === 'actions' && String(block.block_id).startsWith('home_approval_'))
      .map((block) => block.elements as { action_id: string; value: string; text: { text: string } }[]);
    expect(pairs.flat().map((b) => [b.text.text, b.action_id, b.value])).toEqual([
      ['Approve #3 cilium.yml', 'home_approve', 'a1'],
      ['Reject #3 cilium.yml', 'home_reject', 'a1'],
    ]);
    expect(JSON.stringify(view.blocks)).toContain(
      '<https://team.slack.test/archives/C0OPS/p1700000000.000100|Open the request in its thread>',
    );
  });

  it('says when a failed Cilium job left Flux suspended, and how to resume it', () => {
    const suspended = { ...dev, fluxSuspended: { jobNumber: 3, jobId: 'job-3', at: AT, outcome: 'failed' } };
    expect(texts({ kind: 'home', clusters: [suspended] })).toContain(
      '*⚠ Flux suspended* for Cilium since job #3 failed <!date^1796074800^{date_short_pretty} {time}|2026-11-30 21:40 UTC>: it does not reconcile HelmRelease kube-system/cilium until `/cluster cilium dev --resume-flux`',
    );
    expect(texts({ kind: 'home', clusters: [dev] })).not.toContain('Flux suspended');
  });

  it('says why a rollback that went well left Flux suspended', () => {
    const reason = 'rolled back; fix the repo, then `/cluster cilium dev --resume-flux`';
    const suspended = {
      ...dev,
      fluxSuspended: { jobNumber: 4, jobId: 'job-4', at: AT, outcome: 'succeeded', reason },
    };
    expect(texts({ kind: 'home', clusters: [suspended] })).toContain(
      '*⚠ Flux suspended* for Cilium since job #4 succeeded <!date^1796074800^{date_short_pretty} {time}|2026-11-30 21:40 UTC>: rolled back; fix the repo, then `/cluster cilium dev --resume-flux`',
    );
  });

  it('no job page links while there is no job page', () => {
    expect(texts({ kind: 'home', clusters: [dev] }, { jobPageUrl: () => undefined })).not.toContain(
      'job page',
    );
  });

  it('a person who is not an operator sees the refusal only: no cluster, no button', () => {
    const view = renderHome({ code: 'NOT_OPERATOR', user: 'U0MALLORY' }, options);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('not an operator');
    expect(text).not.toContain('dev');
    expect(text).not.toContain('button');
  });

  it('a notice goes on top; cluster names and summaries cannot inject mentions', () => {
    const hostile: HomeCluster = {
      ...prod,
      lastVerify: { outcome: 'failed', at: AT, jobNumber: 0, summary: '<!channel> see <http://evil|here>' },
    };
    const view = renderHome(
      { kind: 'home', clusters: [hostile] },
      { ...options, notice: 'Queued as job #5' },
    );
    expect((view.blocks[0]!.text as { text: string }).text).toBe('Queued as job #5');
    expect(JSON.stringify(view.blocks)).toContain('&lt;!channel&gt; see &lt;http://evil|here&gt;');
  });

  it('stays within Block Kit limits with many clusters and a long line', () => {
    const many = Array.from({ length: 30 }, (_, index) => ({
      ...dev,
      cluster: `c${index}`,
      queued: Array.from({ length: 40 }, () => dev.queued[0]!),
    }));
    const view = renderHome({ kind: 'home', clusters: many }, options);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(validateBlocks(view.blocks.slice(0, 50) as Record<string, unknown>[])).toBeUndefined();
    expect(JSON.stringify(view.blocks)).toContain('and 35 more');
  });
});
