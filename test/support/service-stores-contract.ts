import { describe, expect, it } from 'vitest';
import type { AlertState } from '../../src/jobs/compare-gate-alerts.js';
import type { JobRecord } from '../../src/jobs/job-record.js';
import type { StoredApproval } from '../../src/jobs/ports/approval-announcer.js';
import type { LifecycleEvent } from '../../src/lifecycle/ports/reporter.js';
import type { FluxSuspended, LastVerify } from '../../src/service/cluster-service.js';
import type { ServiceDeps } from '../../src/service/service-deps.js';
import { createInstantClock } from './manual-clock.js';

/** The service's stores under test, with what other writers (worker, watches, outboxes) write the way they write it. */
export interface StoresUnderTest {
  readonly ports: Pick<
    ServiceDeps,
    | 'records'
    | 'clusterLeases'
    | 'approvals'
    | 'audit'
    | 'feed'
    | 'claims'
    | 'homeWatchList'
    | 'clusterNotes'
    | 'outboxBacklog'
    | 'queue'
    | 'rateLimit'
  >;
  readonly write: {
    ended(record: JobRecord): Promise<void>;
    approval(jobId: string, stepId: string, stored: StoredApproval): Promise<void>;
    feed(jobId: string, lines: readonly string[], events: readonly LifecycleEvent[]): Promise<void>;
    verified(cluster: string, verify: LastVerify): Promise<void>;
    fluxSuspended(cluster: string, note: FluxSuspended): Promise<void>;
    alerted(cluster: string, watch: 'verify' | 'drift', state: AlertState): Promise<void>;
    outbox(jobId: string, operations: number): Promise<void>;
  };
  /** Who the job's cancel mark names, as its worker reads it. */
  cancelledBy(jobId: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const RULES = { requiredApprovals: 2, allowSelfApproval: false };
const clock = { now: () => 1_000, sleep: async () => {} };

function pendingApproval(expiresAt: number): StoredApproval {
  return {
    state: { status: 'pending', id: 'job-1.rollout.1', fingerprint: 'f1', expiresAt },
    request: {
      stepId: 'rollout',
      stepTitle: 'Cilium rollout',
      cluster: 'dev',
      reason: 'restarts every agent',
      binding: { commandLine: 'ansible-playbook cilium.yml', targets: 'dev', fingerprint: 'f1' },
    },
    approvals: [],
    requestedAt: 500,
    messageTs: 'msg-1',
  };
}

/** pendingApproval as its worker saves it before posting it: no message ts yet. */
function unannouncedApproval(expiresAt: number): StoredApproval {
  const { messageTs: _notYet, ...saved } = pendingApproval(expiresAt);
  return saved;
}

/** A click on pendingApproval's buttons, on its message. */
const target = { jobId: 'job-1', stepId: 'rollout', approvalId: 'job-1.rollout.1', messageTs: 'msg-1' };
const click = (userId: string, at = 1_000) => ({
  userId,
  decision: 'approve' as const,
  isApprover: true,
  requestedBy: 'U0CAROL',
  at,
});

/**
 * What the service relies on of its stores, run against each implementation (Redis in the lab, memory
 * in the unit project), so a unit test on the memory stores tells what the bot on Redis would do.
 */
// Long only as a whole: one case per port, each a few lines.
export function describeServiceStoresContract(name: string, start: () => Promise<StoresUnderTest>) {
  describe(`the service's stores: ${name}`, () => {
    const using = async (test: (stores: StoresUnderTest) => Promise<void>) => {
      const stores = await start();
      try {
        await test(stores);
      } finally {
        await stores.stop();
      }
    };

    it('queue: numbers jobs, gives a mutating one the lease, refuses or lines up the next, records and audits each', () =>
      using(async ({ ports }) => {
        const up = { verb: 'up', cluster: 'dev' } as const;
        const submit = (
          requestedBy: string,
          command: typeof up | { verb: 'verify'; cluster: 'dev' },
          queueIfBusy = false,
        ) => ports.queue.enqueue({ command, requestedBy, channel: 'C0OPS', queueIfBusy });
        expect(await submit(ALICE, up)).toMatchObject({
          kind: 'queued',
          record: {
            id: 'job-1',
            number: 1,
            pageNonce: expect.stringMatching(/^[\w-]{22}$/),
            folderTag: expect.stringMatching(/^[0-9a-f]{12}$/),
          },
          position: 0,
        });
        expect(await ports.clusterLeases.holder('dev')).toBe('job-1');
        expect(await submit(BOB, up)).toMatchObject({
          kind: 'busy',
          holderJobId: 'job-1',
          holder: { requestedBy: ALICE },
        });
        expect(await submit(BOB, up, true)).toMatchObject({
          kind: 'queued',
          record: { number: 2 },
          position: 1,
        });
        expect(await ports.clusterLeases.waiting('dev')).toEqual(['job-2']);
        expect(await submit(BOB, { verb: 'verify', cluster: 'dev' })).toMatchObject({
          kind: 'queued',
          position: 0,
        });
        expect(await ports.clusterLeases.holder('prod')).toBeNull();
        expect(await ports.clusterLeases.waiting('prod')).toEqual([]);

        expect((await ports.records.recent(10)).map((r) => r.id)).toEqual(['job-3', 'job-2', 'job-1']);
        expect(await ports.records.get('job-1')).toMatchObject({
          command: up,
          requestedBy: ALICE,
          channel: 'C0OPS',
        });
        expect(await ports.records.get('job-9')).toBeUndefined();
        const trail = (await ports.audit.recent(10)).map((e) => [e.who, e.action, e.what, e.jobId]);
        expect(trail).toEqual([
          [BOB, 'command', 'verify dev', 'job-3'],
          [BOB, 'command', 'up dev', 'job-2'],
          [BOB, 'refused', 'up dev: busy', undefined],
          [ALICE, 'command', 'up dev', 'job-1'],
        ]);
        expect((await ports.audit.recent(5, (e) => e.action === 'refused')).map((e) => e.who)).toEqual([BOB]);
      }));

    it('audit: a filtered read looks back past the newest entries until it has its count', () =>
      using(async ({ ports }) => {
        await ports.audit.record({ at: 1, who: ALICE, action: 'cancel', what: 'up dev', cluster: 'dev' });
        await ports.audit.record({ at: 2, who: ALICE, action: 'cancel', what: 'cilium dev', cluster: 'dev' });
        // More than one page of Redis's read (500) of another cluster's entries, newer.
        for (let i = 0; i < 700; i++) {
          await ports.audit.record({
            at: 3 + i,
            who: BOB,
            action: 'cancel',
            what: `prod ${i}`,
            cluster: 'prod',
          });
        }
        const dev = await ports.audit.recent(5, (entry) => entry.cluster === 'dev');
        expect(dev.map((e) => e.what)).toEqual(['cilium dev', 'up dev']);
        expect((await ports.audit.recent(2)).map((e) => e.what)).toEqual(['prod 699', 'prod 698']);
      }));

    it('queue and admission: a repeated delivery and a sender over the limit queue nothing; a delivery seen is seen by every check', () =>
      using(async ({ ports }) => {
        const request = {
          command: { verb: 'verify', cluster: 'dev' },
          requestedBy: ALICE,
          channel: 'C0OPS',
          queueIfBusy: false,
        } as const;
        const admission = { userId: ALICE, deliveryKey: 'command:T1' };
        expect(await ports.queue.enqueue({ ...request, admission })).toMatchObject({ kind: 'queued' });
        expect(await ports.queue.enqueue({ ...request, admission })).toEqual({ kind: 'repeated' });
        expect(await ports.claims.firstDelivery('command:T1')).toBe(false);
        expect(await ports.rateLimit.admit({ userId: BOB, deliveryKey: 'command:T2' })).toBe('admitted');
        expect(await ports.rateLimit.admit({ userId: BOB, deliveryKey: 'command:T2' })).toBe('repeated');
        // One command a minute (the stores are built so): the repeat was not counted, the next one is over.
        expect(await ports.rateLimit.admit({ userId: BOB })).toBe('limited');
        expect(
          await ports.queue.enqueue({ ...request, requestedBy: BOB, admission: { userId: BOB } }),
        ).toEqual({ kind: 'limited' });
        expect((await ports.records.recent(10)).map((r) => r.id)).toEqual(['job-1']);
      }));

    it('records: an ending rewritten by its worker is read back; a cancel is marked for the worker', () =>
      using(async ({ ports, write, cancelledBy }) => {
        const queued = await ports.queue.enqueue({
          command: { verb: 'up', cluster: 'dev' },
          requestedBy: ALICE,
          channel: 'C0OPS',
          queueIfBusy: false,
        });
        if (queued.kind !== 'queued') throw new Error('not queued');
        await write.ended({ ...queued.record, outcome: 'failed', finishedAt: 2_000 });
        expect(await ports.records.get('job-1')).toMatchObject({ outcome: 'failed', finishedAt: 2_000 });
        expect(await ports.records.recent(1)).toMatchObject([{ id: 'job-1', outcome: 'failed' }]);
        expect(await cancelledBy('job-1')).toBeUndefined();
        await ports.records.requestCancel('job-1', BOB);
        expect(await cancelledBy('job-1')).toBe(BOB);
      }));

    it('approvals: read as stored, and each click applied by the rules; a click that matches nothing changes nothing', () =>
      using(async ({ ports, write }) => {
        await write.approval('job-1', 'rollout', pendingApproval(60_000));
        expect(await ports.approvals.read('job-1')).toMatchObject([
          { stepId: 'rollout', stored: pendingApproval(60_000) },
        ]);
        expect(await ports.approvals.read('job-2')).toEqual([]);
        expect(
          await ports.approvals.applyClick({ ...target, messageTs: 'msg-other' }, click(ALICE), RULES, clock),
        ).toEqual({
          verdict: { kind: 'refused', reason: 'this button does not belong to that approval' },
        });
        expect(
          await ports.approvals.applyClick(
            { ...target, approvalId: 'job-1.rollout.0' },
            click(ALICE),
            RULES,
            clock,
          ),
        ).toEqual({
          verdict: { kind: 'refused', reason: 'this button does not match a pending approval' },
        });
        expect(await ports.approvals.applyClick(target, click(ALICE), RULES, clock)).toMatchObject({
          verdict: { kind: 'counted', approvals: [ALICE], missing: 1 },
          stored: { approvals: [ALICE], approvedAt: { [ALICE]: 1_000 } },
        });
        expect(await ports.approvals.applyClick(target, click(ALICE), RULES, clock)).toMatchObject({
          verdict: { kind: 'already-counted', missing: 1 },
          stored: { approvals: [ALICE] },
        });
        expect(await ports.approvals.applyClick(target, click(BOB, 2_000), RULES, clock)).toMatchObject({
          verdict: { kind: 'approved', approvals: [ALICE, BOB] },
          stored: { decidedAt: 2_000, state: { status: 'approved', by: [ALICE, BOB] } },
        });
        const [entry] = await ports.approvals.read('job-1');
        expect(entry!.stored.state).toMatchObject({ status: 'approved', by: [ALICE, BOB] });
        expect(JSON.parse(entry!.raw)).toEqual(entry!.stored);
      }));

    it('approvals: of two clicks at once both are counted, and the decision lands once', () =>
      using(async ({ ports, write }) => {
        await write.approval('job-1', 'rollout', pendingApproval(60_000));
        const clicks = await Promise.all(
          [ALICE, BOB].map((userId) => ports.approvals.applyClick(target, click(userId), RULES, clock)),
        );
        expect(clicks.map(({ verdict }) => verdict.kind).sort()).toEqual(['approved', 'counted']);
        const [entry] = await ports.approvals.read('job-1');
        expect(entry!.stored.state).toMatchObject({ status: 'approved' });
        expect([...entry!.stored.approvals!].sort()).toEqual([ALICE, BOB]);
      }));

    it("approvals: a click that comes before its request's message is saved waits for it; one never saved is refused once the wait is over", () =>
      using(async ({ ports, write }) => {
        // Saved, then posted: the click comes before the worker saves the message's ts.
        await write.approval('job-1', 'rollout', unannouncedApproval(60_000));
        const time = createInstantClock(1_000);
        let posted = false;
        const clock = {
          now: time.now,
          // The worker saves the ts while the click waits.
          async sleep(ms: number) {
            await time.sleep(ms);
            if (posted) return;
            posted = true;
            await write.approval('job-1', 'rollout', pendingApproval(60_000));
          },
        };
        expect(await ports.approvals.applyClick(target, click(ALICE), RULES, clock)).toMatchObject({
          verdict: { kind: 'counted', approvals: [ALICE] },
          stored: { messageTs: 'msg-1', approvals: [ALICE] },
        });

        // The post never came back: nobody saw the request.
        await write.approval('job-2', 'rollout', unannouncedApproval(60_000));
        const waited = createInstantClock(1_000);
        expect(
          await ports.approvals.applyClick({ ...target, jobId: 'job-2' }, click(ALICE), RULES, waited),
        ).toEqual({
          verdict: { kind: 'refused', reason: 'its request was never shown in the job’s thread' },
        });
        expect(waited.now()).toBeGreaterThanOrEqual(6_000);
        expect(await ports.approvals.read('job-2')).toMatchObject([{ stored: unannouncedApproval(60_000) }]);
      }));

    it('feed: the log read in pages after a line, its end told once read; the events in order', () =>
      using(async ({ ports, write }) => {
        await write.feed('job-1', ['one', 'two', 'three'], [{ type: 'note', text: 'hello' }]);
        const first = await ports.feed.lines('job-1', '0', 2);
        expect(first).toMatchObject({ lines: [{ text: 'one' }, { text: 'two' }], ended: false });
        const rest = await ports.feed.lines('job-1', first.lines[1]!.id, 10);
        expect(rest).toMatchObject({ lines: [{ text: 'three' }], ended: true });
        expect(await ports.feed.lines('job-2', '0', 10)).toEqual({ lines: [], ended: false });
        expect(await ports.feed.events('job-1')).toMatchObject([{ event: { type: 'note', text: 'hello' } }]);
      }));

    it('claims: a delivery once; a follow-up claimed once, then held by the job it queued, or let go when it queued none', () =>
      using(async ({ ports }) => {
        expect(await ports.claims.firstDelivery('action:T1')).toBe(true);
        expect(await ports.claims.firstDelivery('action:T1')).toBe(false);
        expect(await ports.claims.claimFollowUp('rerun', 'job-1')).toBeUndefined();
        expect(await ports.claims.claimFollowUp('rerun', 'job-1')).toEqual({ jobId: undefined });
        expect(await ports.claims.claimFollowUp('rollback', 'job-1')).toBeUndefined();
        await ports.claims.settleFollowUp('rerun', 'job-1', 'job-7');
        expect(await ports.claims.claimFollowUp('rerun', 'job-1')).toEqual({ jobId: 'job-7' });
        await ports.claims.settleFollowUp('rollback', 'job-1', undefined);
        expect(await ports.claims.claimFollowUp('rollback', 'job-1')).toBeUndefined();
      }));

    it('home watch list: watchers since a time, the others forgotten with what they were shown', () =>
      using(async ({ ports }) => {
        const list = ports.homeWatchList;
        await list.watch(BOB, 1_000);
        await list.watch(ALICE, 2_000);
        expect(await list.watchersSince(0)).toEqual([BOB, ALICE]);
        expect(await list.markShown(BOB, 'h1')).toBe(true);
        expect(await list.markShown(BOB, 'h1')).toBe(false);
        expect(await list.watchersSince(1_500)).toEqual([ALICE]);
        expect(await list.markShown(BOB, 'h1')).toBe(true);
      }));

    it('cluster notes and the outbox backlog: what the watches and outboxes left, nothing for a cluster they did not touch', () =>
      using(async ({ ports, write }) => {
        const verify = { outcome: 'failed', at: 3_000, jobNumber: 0, summary: 'a node is not Ready' };
        await write.verified('dev', verify);
        await write.fluxSuspended('dev', { jobNumber: 4, jobId: 'job-4', at: 4_000, outcome: 'failed' });
        await write.alerted('dev', 'drift', { 'Cilium drift: mtu': { observed: '1450', alertedAt: 5_000 } });
        await write.alerted('dev', 'verify', { 'nodes Ready': { observed: '2/3', alertedAt: 6_000 } });
        expect(await ports.clusterNotes.lastVerify('dev')).toEqual(verify);
        expect(await ports.clusterNotes.fluxSuspended('dev')).toMatchObject({ jobId: 'job-4' });
        expect(await ports.clusterNotes.alertStates('dev')).toEqual([
          { 'nodes Ready': { observed: '2/3', alertedAt: 6_000 } },
          { 'Cilium drift: mtu': { observed: '1450', alertedAt: 5_000 } },
        ]);
        expect(await ports.clusterNotes.lastVerify('prod')).toBeUndefined();
        expect(await ports.clusterNotes.fluxSuspended('prod')).toBeUndefined();
        expect(await ports.clusterNotes.alertStates('prod')).toEqual([]);
        expect(await ports.outboxBacklog.read()).toEqual({ jobs: 0, operations: 0 });
        await write.outbox('job-1', 3);
        await write.outbox('job-2', 1);
        expect(await ports.outboxBacklog.read()).toEqual({ jobs: 2, operations: 4 });
      }));
  });
}
