import { Registry } from 'prom-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { meterBacklog } from '../../src/app/meter-backlog.js';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { renderHome } from '../../src/bot/render-home.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { approvalId } from '../../src/jobs/approval-id.js';
import { buildPlan } from '../../src/lifecycle/verbs/build-plan.js';
import { createClusterService, type Decision } from '../../src/service/index.js';
import { describeAudit } from '../../src/wording/describe-audit.js';
import { startServiceInMemory } from '../support/cluster-service-in-memory.js';
import { loadExampleWorld } from '../support/example-world.js';

const ALICE = { userId: 'U0ALICE', channelId: 'C0OPS' };
const BOB = { userId: 'U0BOB', channelId: 'C0OPS' };
/** In the S0PLATFORM group: an operator everywhere, an approver nowhere. */
const DAVE = { userId: 'U0DAVE', channelId: 'C0OPS' };
const MALLORY = { userId: 'U0MALLORY', channelId: 'C0OPS' };
const GROUPS = new Map([['S0PLATFORM', ['U0DAVE']]]);

let world: WorldConfig;
let t: ReturnType<typeof startServiceInMemory>;

beforeEach(async () => {
  world = await loadExampleWorld();
  t = startServiceInMemory(world, { groups: GROUPS, perMinute: 2 });
});

/** A job's ending as its worker writes it on the record (the rest of the ending does not matter here). */
async function endJob(jobId: string, outcome: string) {
  const record = (await t.records.store.get(jobId))!;
  t.records.rewrite({ ...record, outcome, finishedAt: t.clock.now() });
}

/** An approval pending on a step of `jobId`, as its worker's desk stores it, its buttons on message `msg-<jobId>`. */
async function pendingApproval(
  jobId: string,
  cluster: string,
  stepId = 'rollout',
  minimumApprovals?: number,
) {
  const now = t.clock.now();
  const id = approvalId(jobId, stepId, now);
  t.approvals.put(jobId, stepId, {
    state: { status: 'pending', id, fingerprint: 'f1', expiresAt: now + 60_000 },
    request: {
      stepId,
      stepTitle: 'Cilium rollout',
      cluster,
      reason: 'restarts every agent',
      binding: {
        commandLine: 'ansible-playbook cilium.yml',
        targets: cluster,
        commit: '0123456789abcdef0123456789abcdef01234567',
        fingerprint: 'f1',
      },
      minimumApprovals,
    },
    approvals: [],
    requestedAt: now,
    messageTs: `msg-${jobId}`,
  });
  return { value: id, messageTs: `msg-${jobId}` };
}

describe('the cluster service', () => {
  it('submits a job, audits it, and refuses a second mutating job on the busy cluster (or queues it)', async () => {
    expect(await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false)).toEqual({
      kind: 'queued',
      jobId: 'job-1',
      number: 1,
      cluster: 'dev',
      command: 'cilium dev',
      position: 0,
      pageNonce: expect.stringMatching(/^[\w-]{22}$/),
    });
    expect(await t.service.submit(BOB, { verb: 'up', cluster: 'dev' }, false)).toMatchObject({
      code: 'BUSY',
      cluster: 'dev',
      command: 'up dev',
      holder: { id: 'job-1', record: { number: 1, requestedBy: 'U0ALICE' }, progress: { kind: 'queued' } },
    });
    expect(await t.service.submit(BOB, { verb: 'up', cluster: 'dev' }, true)).toMatchObject({
      kind: 'queued',
      number: 2,
      position: 1,
    });
    // The refusal took no number: the numbers people see have no gaps.
    const entries = await t.audit.trail.recent(10);
    expect(entries.map((e) => [e.who, e.action, e.what, e.jobId])).toEqual([
      ['U0BOB', 'command', 'up dev', 'job-2'],
      ['U0BOB', 'refused', 'up dev: busy', undefined],
      ['U0ALICE', 'command', 'cilium dev', 'job-1'],
    ]);
    const status = await t.service.status(ALICE, 'dev');
    expect(status).toMatchObject({
      kind: 'status',
      clusters: [{ cluster: 'dev', holder: { id: 'job-1' }, waiting: ['job-2'], lastVerify: undefined }],
    });
    expect(await t.service.jobs(ALICE)).toMatchObject({
      kind: 'jobs',
      jobs: [{ id: 'job-2' }, { id: 'job-1' }],
    });
  });

  it('checks the cluster’s own rights before anything is queued, and the plan the config builds', async () => {
    expect(await t.service.submit(MALLORY, { verb: 'up', cluster: 'prod' }, false)).toEqual({
      code: 'NOT_OPERATOR',
      user: 'U0MALLORY',
      cluster: 'prod',
    });
    expect(
      await t.service.submit(
        { userId: 'U0ALICE', channelId: 'C0ELSEWHERE' },
        { verb: 'up', cluster: 'dev' },
        false,
      ),
    ).toEqual({ code: 'WRONG_CHANNEL', channel: 'C0ELSEWHERE', allowed: ['C0OPS'], cluster: 'dev' });
    expect(await t.service.submit(ALICE, { verb: 'up', cluster: 'nope' }, false)).toEqual({
      code: 'PLAN_INVALID',
      message: 'unknown cluster nope',
    });
    expect(await t.service.jobs(MALLORY)).toEqual({ code: 'NOT_OPERATOR', user: 'U0MALLORY' });
    expect(await t.records.store.recent(1)).toEqual([]);
  });

  it('plans: the steps from the config and a read-only job, which takes no lease', async () => {
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    const planned = await t.service.plan(BOB, { verb: 'cilium', cluster: 'dev' });
    expect(planned).toMatchObject({ kind: 'planned', number: 2 });
    expect(planned).toHaveProperty('steps', expect.stringContaining('\n'));
    expect((await t.records.store.get('job-2'))?.command).toEqual({
      verb: 'plan',
      cluster: 'dev',
      of: { verb: 'cilium', cluster: 'dev' },
    });
  });

  it('cancels for the requester or an approver only, and not a job that ended or never was', async () => {
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    expect(await t.service.cancel(ALICE, '9')).toEqual({ code: 'NO_SUCH_JOB', number: '9' });
    expect(await t.service.cancel(DAVE, '1')).toEqual({ code: 'NOT_CANCELLER', cluster: 'dev', number: 1 });
    expect(t.records.cancelledBy('job-1')).toBeUndefined();
    expect(await t.service.cancel(BOB, '1')).toEqual({ kind: 'cancelling', number: 1 });
    expect(t.records.cancelledBy('job-1')).toBe('U0BOB');
    expect(t.queue.promoted).toEqual(['job-1']);
    expect((await t.audit.trail.recent(1))[0]).toMatchObject({
      who: 'U0BOB',
      action: 'cancel',
      jobId: 'job-1',
    });
    await endJob('job-1', 'cancelled');
    expect(await t.service.cancel(ALICE, '1')).toEqual({
      code: 'JOB_ENDED',
      number: 1,
      outcome: 'cancelled',
    });
  });

  it('rolls back from a failed Cilium rollout only, with the clicker’s rights for the cluster, queuing cilium --rollback', async () => {
    // Each click counts against the clicker's limit: more of them than the other tests allow.
    t = startServiceInMemory(world, { groups: GROUPS, perMinute: 20 });
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    await t.service.submit(ALICE, { verb: 'verify', cluster: 'dev' }, false);
    expect(await t.service.rollBackCilium(ALICE, 'job-1')).toEqual({
      code: 'ROLLBACK_NOT_OFFERED',
      why: 'not-failed',
      number: 1,
    });
    await endJob('job-1', 'failed');
    t.leases.free('dev');
    expect(await t.service.rollBackCilium(ALICE, 'job-2')).toEqual({
      code: 'ROLLBACK_NOT_OFFERED',
      why: 'not-a-rollout',
      number: 2,
    });
    expect(await t.service.rollBackCilium(ALICE, 'job-1;rm')).toEqual({
      code: 'ROLLBACK_NOT_OFFERED',
      why: 'no-such-job',
    });
    expect(await t.service.rollBackCilium(MALLORY, 'job-1')).toMatchObject({ code: 'NOT_OPERATOR' });
    expect(await t.service.rollBackCilium(BOB, 'job-1')).toEqual({
      kind: 'queued',
      jobId: 'job-3',
      number: 3,
      cluster: 'dev',
      command: 'cilium dev --rollback',
      position: 0,
      pageNonce: expect.stringMatching(/^[\w-]{22}$/),
    });
    expect((await t.records.store.get('job-3'))?.command).toEqual({
      verb: 'cilium',
      cluster: 'dev',
      mode: { kind: 'rollback' },
    });
    // A second click (anyone's, even once the cluster is free) queues no second rollback.
    t.leases.free('dev');
    expect(await t.service.rollBackCilium(ALICE, 'job-1')).toEqual({
      code: 'ROLLBACK_NOT_OFFERED',
      why: 'already-rolled-back',
      number: 3,
    });
    expect(await t.records.store.get('job-4')).toBeUndefined();
  });

  it('re-runs a failed or cancelled job once, as a new job of its command for whoever asks, refusing every other job', async () => {
    t = startServiceInMemory(world, { groups: GROUPS, perMinute: 30 });
    await t.service.submit(ALICE, { verb: 'up', cluster: 'dev' }, false);
    const number = (n: string) => ({ number: n });
    expect(await t.service.rerun(BOB, number('1'))).toEqual({
      code: 'RERUN_REFUSED',
      why: 'not-ended',
      number: 1,
    });
    await endJob('job-1', 'succeeded');
    expect(await t.service.rerun(BOB, number('1'))).toEqual({
      code: 'RERUN_REFUSED',
      why: 'not-failed',
      number: 1,
      outcome: 'succeeded',
    });
    expect(await t.service.rerun(BOB, number('9'))).toEqual({
      code: 'RERUN_REFUSED',
      why: 'no-such-job',
      number: '9',
    });
    expect(await t.service.rerun(BOB, { id: 'job-1;rm' })).toEqual({
      code: 'RERUN_REFUSED',
      why: 'no-such-job',
    });
    t.leases.free('dev');
    await t.service.submit(ALICE, { verb: 'up', cluster: 'dev' }, false);
    await endJob('job-2', 'failed');
    t.leases.free('dev');
    // Not an operator of dev: refused and audited, and the job stays re-runnable.
    expect(await t.service.rerun(MALLORY, { id: 'job-2' })).toMatchObject({ code: 'NOT_OPERATOR' });
    expect((await t.audit.trail.recent(1))[0]).toMatchObject({
      who: 'U0MALLORY',
      action: 'click-refused',
      what: expect.stringContaining('re-run job #2'),
      jobId: 'job-2',
    });
    // Two at once (two clicks, a click and a command): one job.
    const both = await Promise.all([
      t.service.rerun(BOB, { id: 'job-2' }),
      t.service.rerun(ALICE, number('2')),
    ]);
    const queued = both.filter((result) => 'kind' in result);
    expect(queued).toEqual([
      {
        kind: 'queued',
        jobId: 'job-3',
        number: 3,
        cluster: 'dev',
        command: 'up dev',
        position: 0,
        pageNonce: expect.stringMatching(/^[\w-]{22}$/),
      },
    ]);
    expect(both.filter((result) => 'code' in result)).toEqual([
      { code: 'RERUN_REFUSED', why: 'already-rerun', number: 2 },
    ]);
    const rerun = await t.records.store.get('job-3');
    expect(rerun).toMatchObject({
      command: { verb: 'up', cluster: 'dev' },
      rerunOf: { jobId: 'job-2', number: 2 },
    });
    expect(rerun?.requestedBy).toBe(both[0] === queued[0] ? 'U0BOB' : 'U0ALICE');
    expect((await t.audit.trail.recent(5)).find((entry) => entry.jobId === 'job-3')).toMatchObject({
      action: 'command',
      what: 'up dev (re-run of #2)',
    });
    // A later ask, even with the cluster free, names the re-run.
    t.leases.free('dev');
    expect(await t.service.rerun(ALICE, number('2'))).toEqual({
      code: 'RERUN_REFUSED',
      why: 'already-rerun',
      number: 2,
      rerun: 3,
    });
    expect(await t.records.store.get('job-4')).toBeUndefined();
  });

  it('a re-run by an operator of other clusters only learns nothing of the job: refused for its cluster, audited', async () => {
    await t.service.submit(ALICE, { verb: 'up', cluster: 'dev' }, false);
    await endJob('job-1', 'failed');
    const dev = { ...world.clusters.dev!, operators: ['U0ALICE'] };
    // The same stores and jobs, seen through a config where Bob operates prod alone.
    const other = createClusterService({
      ...t.ports,
      world: { ...world, clusters: { ...world.clusters, dev } },
      metrics: t.metrics,
      members: async () => [],
      clock: t.clock,
    });
    expect(await other.rerun(BOB, { number: '1' })).toEqual({
      code: 'NOT_OPERATOR',
      user: 'U0BOB',
      cluster: 'dev',
    });
    expect((await t.audit.trail.recent(1))[0]).toMatchObject({
      who: 'U0BOB',
      action: 'refused',
      jobId: 'job-1',
    });
    // No re-run claimed: the next ask may claim it.
    expect(await t.ports.claims.claimFollowUp('rerun', 'job-1')).toBeUndefined();
  });

  it('decides a click by the cluster’s rules, shows it before waking the job, audits every click', async () => {
    await t.service.submit(BOB, { verb: 'cilium', cluster: 'prod' }, false);
    const button = await pendingApproval('job-1', 'prod');
    const shown: Decision[] = [];
    const show = async (decision: Decision) => {
      shown.push(decision);
    };
    expect(
      await t.service.decide(ALICE, { decision: 'approve', value: 'forged', messageTs: 'x' }, show),
    ).toEqual({
      code: 'NO_SUCH_APPROVAL',
    });
    expect(await t.service.decide(BOB, { decision: 'approve', ...button }, show)).toMatchObject({
      code: 'CLICK_REFUSED',
    });
    const home = await t.service.home(ALICE);
    expect(home).toMatchObject({
      kind: 'home',
      clusters: [
        { cluster: 'dev', approvals: [] },
        {
          cluster: 'prod',
          holder: { id: 'job-1' },
          approvals: [
            { jobId: 'job-1', stepTitle: 'Cilium rollout', approvalId: button.value, mayApprove: true },
          ],
        },
      ],
    });
    expect(await t.service.decide(ALICE, { decision: 'approve', ...button }, show)).toMatchObject({
      kind: 'counted',
      userId: 'U0ALICE',
      step: 'Cilium rollout',
      count: 1,
      required: 2,
      missing: 1,
      thread: { channel: 'C0OPS' },
    });
    expect(await t.service.decide(ALICE, { decision: 'approve', ...button }, show)).toEqual({
      kind: 'already-counted',
      missing: 1,
    });
    const carol = { userId: 'U0CAROL', channelId: 'C0OPS' };
    expect(await t.service.decide(carol, { decision: 'approve', ...button }, show)).toMatchObject({
      kind: 'decided',
      verdict: 'approved',
      stored: { state: { status: 'approved', by: ['U0ALICE', 'U0CAROL'] } },
    });
    expect(shown.map((d) => d.kind)).toEqual(['counted', 'decided']);
    // How long people took to decide is measured from the request to the deciding click.
    const waited = await t.metrics.approvalWait.get();
    expect(waited.values).toContainEqual(
      expect.objectContaining({ metricName: 'cluster_bot_approval_wait_seconds_count', value: 1 }),
    );
    const trail = (await t.audit.trail.recent(10)).map((e) => [e.who, e.action, e.what]);
    expect(trail.slice(0, 5)).toEqual([
      ['U0CAROL', 'approve', 'Cilium rollout: approved (2/2)'],
      ['U0ALICE', 'click-refused', 'approve Cilium rollout: already counted'],
      ['U0ALICE', 'approve', 'Cilium rollout (1/2)'],
      ['U0BOB', 'click-refused', expect.stringMatching(/^approve Cilium rollout: /)],
      ['U0ALICE', 'click-refused', 'approve: the button matches no pending approval'],
    ]);
  });

  it('the audit says where a click came from: the job’s thread or the App Home', async () => {
    await t.service.submit(BOB, { verb: 'cilium', cluster: 'prod' }, false);
    const button = await pendingApproval('job-1', 'prod');
    await t.service.decide(ALICE, { decision: 'approve', ...button }, async () => {});
    const carol = { userId: 'U0CAROL', channelId: 'C0OPS' };
    await t.service.decide(carol, { decision: 'approve', value: button.value, onHome: true }, async () => {});

    const entries = await t.audit.trail.recent(2);
    expect(entries.map((e) => [e.who, e.action, e.via])).toEqual([
      ['U0CAROL', 'approve', 'app-home'],
      ['U0ALICE', 'approve', 'thread'],
    ]);
    const answer = await t.service.audit(ALICE, 2);
    const lines = ('entries' in answer ? describeAudit(answer.entries, MRKDWN) : '').split('\n');
    expect(lines[1]).toMatch(
      / <@U0CAROL> approve \(App Home\) \[#1 .*\]: Cilium rollout: approved \(2\/2\)$/,
    );
    expect(lines[2]).toMatch(/ <@U0ALICE> approve \(thread\) \[#1 .*\]: Cilium rollout \(1\/2\)$/);
  });

  it('the audit numbers a clicked step as the board does, not by its id', async () => {
    await t.service.submit(ALICE, { verb: 'up', cluster: 'dev' }, false);
    // The board as the job's reporter saves it: the plan's steps in order. up's ids skip the
    // kubeconfig step after k3s.yml ("3-k3s-kubeconfig"), so from there on id and place differ.
    const plan = buildPlan({ verb: 'up', cluster: 'dev' }, world);
    const thread = await t.threads.store.load((await t.records.store.get('job-1'))!);
    const steps = plan.steps.map(({ id, title, target }) => ({
      id,
      title,
      target,
      disruptive: false,
      status: 'pending' as const,
    }));
    t.threads.save({ ...thread, board: { ...thread.board, steps } });
    const cilium = plan.steps.findIndex((step) => step.title === 'cilium.yml');
    expect(plan.steps[cilium]!.id).toBe(`${cilium}-cilium`);
    const button = await pendingApproval('job-1', 'dev', plan.steps[cilium]!.id);
    await t.service.decide(BOB, { decision: 'approve', ...button }, async () => {});

    const answer = await t.service.audit(ALICE, 1);
    const text = 'entries' in answer ? describeAudit(answer.entries, MRKDWN) : '';
    expect(text).toContain(`[#1 step ${cilium + 1} approval job-1.${cilium}-cilium.`);
  });

  it('home: each waiting approval with its own count, its request’s message, and buttons for who may decide it', async () => {
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'prod' }, false);
    // A step that asks more than its cluster's count (a restore asks two distinct approvers on dev).
    const dev = await pendingApproval('job-1', 'dev', 'rollout', 2);
    const prod = await pendingApproval('job-2', 'prod');
    const [alice, bob] = await t.service.homes([ALICE, BOB]);
    const approvalsOf = (answer: typeof alice) =>
      answer && 'kind' in answer ? answer.clusters.flatMap((c) => c.approvals) : [];
    expect(approvalsOf(bob)).toMatchObject([
      {
        jobId: 'job-1',
        required: 2,
        mayApprove: true,
        mayReject: true,
        message: { channel: 'C0OPS', ts: dev.messageTs },
        runs: { commandLine: 'ansible-playbook cilium.yml', targets: 'dev', commit: '0123456789ab' },
      },
      {
        jobId: 'job-2',
        required: 2,
        mayApprove: true,
        mayReject: true,
        message: { channel: 'C0OPS', ts: prod.messageTs },
      },
    ]);
    // Dev lets the requester approve; prod does not, so Alice may only reject her prod job.
    expect(approvalsOf(alice).map((a) => [a.jobId, a.mayApprove, a.mayReject])).toEqual([
      ['job-1', true, true],
      ['job-2', false, true],
    ]);
    const view = renderHome(alice!, {
      jobPageUrl: () => undefined,
      verifyChannel: () => 'C0OPS',
      threadLink: (channel, ts) => `https://slack.test/archives/${channel}/p${ts}`,
    });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('job #1 at Cilium rollout (2 needed; approvers: <@U0ALICE>, <@U0BOB>)');
    expect(text).toContain('<https://slack.test/archives/C0OPS/pmsg-job-1|Open the request in its thread>');
    expect(text.match(/"action_id":"home_(approve|reject)","value":"[^"]+"/g)).toEqual([
      `"action_id":"home_approve","value":"${dev.value}"`,
      `"action_id":"home_reject","value":"${dev.value}"`,
      `"action_id":"home_reject","value":"${prod.value}"`,
    ]);
  });

  it('home: the line behind the holder, open alerts and approvers; a stranger gets a refusal only', async () => {
    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    await t.service.submit(BOB, { verb: 'up', cluster: 'dev' }, true);
    t.notes.alerted('dev', 'verify', { 'nodes Ready': { observed: '2/3 Ready', alertedAt: 1_000 } });
    const drift = 'Cilium drift: maxUnavailable (live DaemonSet)';
    t.notes.alerted('dev', 'drift', { [drift]: { observed: '2 (files say 1)', alertedAt: 2_000 } });
    const home = await t.service.home(DAVE);
    expect(home).toMatchObject({
      kind: 'home',
      clusters: [
        {
          cluster: 'dev',
          holder: { id: 'job-1' },
          queued: [{ id: 'job-2', record: { requestedBy: 'U0BOB', command: { verb: 'up' } } }],
          alerts: [
            { gate: 'nodes Ready', observed: '2/3 Ready', alertedAt: 1_000 },
            { gate: drift, observed: '2 (files say 1)', alertedAt: 2_000 },
          ],
          approvers: ['U0ALICE', 'U0BOB'],
          requiredApprovals: 1,
        },
        { cluster: 'prod', queued: [], alerts: [], requiredApprovals: 2 },
      ],
    });
    expect(await t.service.home(MALLORY)).toEqual({ code: 'NOT_OPERATOR', user: 'U0MALLORY' });

    // Several people at once (the Home refresh): the same clusters, each one's own right to decide.
    await pendingApproval('job-1', 'dev');
    const [alice, dave, mallory] = await t.service.homes([ALICE, DAVE, MALLORY]);
    const devOf = (answer: typeof alice) => (answer && 'clusters' in answer ? answer.clusters[0] : undefined);
    expect(devOf(alice)).toMatchObject({
      holder: { id: 'job-1' },
      approvals: [{ jobId: 'job-1', mayApprove: true, mayReject: true }],
    });
    expect(devOf(dave)).toMatchObject({
      holder: { id: 'job-1' },
      approvals: [{ jobId: 'job-1', mayApprove: false, mayReject: false }],
    });
    expect(mallory).toEqual({ code: 'NOT_OPERATOR', user: 'U0MALLORY' });
  });

  it('remembers who watches the Home for a while, and publishes each change once across processes', async () => {
    // Two processes: two services on the same stores.
    const other = createClusterService({
      ...t.ports,
      world,
      metrics: t.metrics,
      members: async () => [],
      clock: t.clock,
    });
    await t.service.watchHome('U0BOB');
    t.clock.advance(10 * 60_000);
    await other.watchHome('U0ALICE');
    expect([...(await other.homeWatchers(30 * 60_000))].sort()).toEqual(['U0ALICE', 'U0BOB']);
    expect(await other.markHomeShown('U0BOB', 'h1')).toBe(true);
    expect(await t.service.markHomeShown('U0BOB', 'h1')).toBe(false);
    expect(await other.markHomeShown('U0BOB', 'h2')).toBe(true);
    t.clock.advance(25 * 60_000);
    // Bob opened it 35 minutes ago: forgotten, with what he was shown (a new open publishes afresh).
    expect(await t.service.homeWatchers(30 * 60_000)).toEqual(['U0ALICE']);
    expect(await other.markHomeShown('U0BOB', 'h2')).toBe(true);
  });

  it('limits commands per person per minute, and knows a delivery it has seen', async () => {
    const alice = { userId: ALICE.userId };
    expect(await t.service.admitCommand({ ...alice, deliveryKey: 'command:T0' })).toBeUndefined();
    // A repeat is dropped before it is counted.
    expect(await t.service.admitCommand({ ...alice, deliveryKey: 'command:T0' })).toEqual({
      code: 'REPEATED_DELIVERY',
    });
    expect(await t.service.admitCommand(alice)).toBeUndefined();
    expect(await t.service.admitCommand(alice)).toEqual({ code: 'RATE_LIMITED', perMinute: 2 });
    expect(await t.service.admitCommand({ userId: BOB.userId })).toBeUndefined();
    expect(await t.service.firstDelivery('command:T1')).toBe(true);
    expect(await t.service.firstDelivery('command:T1')).toBe(false);
  });

  it('answers the audit trail to operators only', async () => {
    await t.service.submit(ALICE, { verb: 'verify', cluster: 'dev' }, false);
    expect(await t.service.audit(ALICE, 5)).toMatchObject({
      kind: 'audit',
      entries: [{ who: 'U0ALICE', action: 'command', what: 'verify dev' }],
    });
    expect(await t.service.audit(MALLORY, 5)).toEqual({ code: 'NOT_OPERATOR', user: 'U0MALLORY' });
  });

  it('shows on /metrics what piles up: open jobs and their age, pending approvals and the soonest expiry, the last verify, the outboxes', async () => {
    const registry = new Registry();
    meterBacklog(registry, t.service);
    const quiet = await registry.metrics();
    expect(quiet).toContain('cluster_bot_open_jobs{cluster="dev"} 0\n');
    expect(quiet).toContain('cluster_bot_outbox_operations 0\n');
    expect(quiet).not.toContain('cluster_bot_approval_expires_in_seconds{');

    await t.service.submit(ALICE, { verb: 'cilium', cluster: 'dev' }, false);
    await pendingApproval('job-1', 'dev');
    await t.service.submit(ALICE, { verb: 'verify', cluster: 'dev' }, false);
    await endJob('job-2', 'failed');
    t.notes.verified('dev', {
      outcome: 'failed',
      at: 1_700_000_000_000,
      jobNumber: 2,
      summary: 'a node is not Ready',
    });
    // The job's thread outbox: a post and two updates not yet sent.
    t.notes.outbox('job-1', 3);

    const text = await registry.metrics();
    expect(text).toContain('cluster_bot_open_jobs{cluster="dev"} 1\n');
    expect(text).toContain('cluster_bot_open_jobs{cluster="prod"} 0\n');
    expect(text).toContain('cluster_bot_pending_approvals{cluster="dev"} 1\n');
    const expiresIn = Number(/cluster_bot_approval_expires_in_seconds\{cluster="dev"\} (\S+)/.exec(text)![1]);
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(60);
    const queuedFor = Number(
      /cluster_bot_oldest_open_job_seconds\{cluster="dev",state="queued"\} (\S+)/.exec(text)![1],
    );
    expect(queuedFor).toBeGreaterThanOrEqual(0);
    expect(queuedFor).toBeLessThan(60);
    expect(text).toContain('cluster_bot_oldest_open_job_seconds{cluster="dev",state="running"} 0\n');
    expect(text).toContain('cluster_bot_last_verify_failed{cluster="dev"} 1\n');
    expect(text).toContain('cluster_bot_last_verify_timestamp_seconds{cluster="dev"} 1700000000\n');
    expect(text).toContain('cluster_bot_last_verify_failed{cluster="prod"} 0\n');
    expect(text).toContain('cluster_bot_outbox_jobs 1\n');
    expect(text).toContain('cluster_bot_outbox_operations 3\n');
    // The example world schedules verify on both clusters: the rule compares against the period.
    expect(text).toMatch(/cluster_bot_verify_every_seconds\{cluster="dev"\} \d+\n/);
  });
});
