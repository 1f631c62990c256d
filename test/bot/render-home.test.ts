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
      mayApprove: true,
      mayReject: true,
      runs: {
        commandLine: 'ansible-playbook -i inventories/dev/hosts.yml playbooks/cilium.yml',
        targets: 'k3s-dev-1, k3s-dev-2, k3s-dev-3',
        commit: '4f2a9c1e7b3d',
      },
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

  const link = {
    threadLink: (channel: string, ts: string) => `https://team.slack.test/archives/${channel}/p${ts}`,
  };
  const posted = { ...dev.approvals[0]!, message: { channel: 'C0OPS', ts: '1700000000.000100' } };
  type Button = {
    action_id: string;
    value: string;
    text: { text: string };
    confirm?: { title: { text: string }; text: { text: string }; confirm: { text: string } };
  };
  const homeButtons = (approvals: HomeCluster['approvals']) => {
    const view = renderHome({ kind: 'home', clusters: [{ ...dev, approvals }] }, { ...options, ...link });
    expect(validateBlocks(view.blocks as Record<string, unknown>[], 100)).toBeUndefined();
    const buttons = view.blocks
      .filter((block) => block.type === 'actions' && String(block.block_id).startsWith('home_approval_'))
      .flatMap((block) => block.elements as Button[]);
    return { buttons, text: JSON.stringify(view.blocks) };
  };

  it('Approve and Reject of its own for each request in a thread that the viewer may decide, and a link to it', () => {
    const others = { ...posted, jobId: 'job-5', approvalId: 'a5', mayApprove: false, mayReject: false };
    const notYetPosted = { ...dev.approvals[0]!, jobId: 'job-6', approvalId: 'a6' };
    const { buttons, text } = homeButtons([posted, others, notYetPosted]);
    expect(buttons.map((b) => [b.text.text, b.action_id, b.value])).toEqual([
      ['Approve #3 cilium.yml', 'home_approve', 'a1'],
      ['Reject #3 cilium.yml', 'home_reject', 'a1'],
    ]);
    expect(text).toContain(
      '<https://team.slack.test/archives/C0OPS/p1700000000.000100|Open the request in its thread>',
    );
  });

  it('Approve asks a confirm dialog with the command line, targets and 12-character commit; Reject asks nothing', () => {
    const [approve, reject] = homeButtons([posted]).buttons;
    expect(approve!.confirm!.title.text).toBe('Approve #3 cilium.yml?');
    expect(approve!.confirm!.confirm.text).toBe('Approve');
    expect(approve!.confirm!.text.text).toBe(
      [
        'Runs: ansible-playbook -i inventories/dev/hosts.yml playbooks/cilium.yml',
        'Targets: k3s-dev-1, k3s-dev-2, k3s-dev-3',
        'Infra repo commit: 4f2a9c1e7b3d',
        'The reason and the check-mode preview are in the request in its thread.',
      ].join('\n'),
    );
    expect(reject!.confirm).toBeUndefined();
  });

  it('a long command line gives way in the dialog: its text stays within 300 characters, the commit in it', () => {
    const long = {
      ...posted,
      runs: {
        commandLine: `ansible-playbook playbooks/site.yml --limit ${'k3s-dev-9,'.repeat(60)}k3s-dev-10 --diff`,
        targets: Array.from({ length: 40 }, (_, i) => `k3s-dev-${i}`).join(', '),
        commit: '4f2a9c1e7b3d',
      },
    };
    const confirm = homeButtons([long]).buttons[0]!.confirm!;
    expect(confirm.text.text.length).toBeLessThanOrEqual(300);
    expect(confirm.text.text).toMatch(
      // Shortened in its middle: where it runs and its last words (the end of the limit) stay.
      /^Runs: ansible-playbook playbooks\/site\.y…[\w,-]*,k3s-dev-10 --diff\nTargets: /,
    );
    expect(confirm.text.text).toContain('\nInfra repo commit: 4f2a9c1e7b3d\n');
  });

  it('the requester where self-approval is off gets Reject only', () => {
    const own = { ...posted, mayApprove: false, mayReject: true };
    const { buttons, text } = homeButtons([own]);
    expect(buttons.map((b) => b.action_id)).toEqual(['home_reject']);
    expect(text).toContain('You may reject it (you asked for this job).');
  });

  it('no buttons, only the link saying why, for a request with a warning, a loss, a moved repo or a host key', () => {
    for (const why of [
      'a host key to compare',
      'it carries a warning',
      'it says what is lost',
      'the infra repo moved since the last approval',
    ]) {
      const { buttons, text } = homeButtons([{ ...posted, decideInThread: why }]);
      expect(buttons).toEqual([]);
      expect(text).toContain(
        `<https://team.slack.test/archives/C0OPS/p1700000000.000100|Open the request to decide>: ${why}.`,
      );
    }
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
