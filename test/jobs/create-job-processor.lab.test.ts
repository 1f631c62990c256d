import { afterEach, describe, expect, it } from 'vitest';
import { requestCancel } from '../../src/jobs/request-cancel.js';
import type { ClickVerdict } from '../../src/lifecycle/approval/decide-approval.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { healthyHosts } from '../support/healthy-hosts.js';
import { labMs } from '../support/lab-time.js';
import { type InProcessWorker, startInProcessWorker } from '../support/start-in-process-worker.js';
import { waitFor } from '../support/wait-for.js';

/** A mutating prod command: its one playbook step asks for approval (every prod step does). */
const PACKAGES_PROD: LifecycleCommand = { verb: 'packages', cluster: 'prod', node: 'k3s-prod-1' };
const APPROVAL_TIMEOUT_MS = 30 * 60_000;

let lab: InProcessWorker | undefined;

afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

const submit = (command: LifecycleCommand, requestedBy?: string, queueIfBusy?: boolean) =>
  lab!.submit(command, requestedBy, queueIfBusy);

const outcomeOf = (jobId: string) =>
  waitFor(`the outcome of ${jobId}`, async () => (await lab!.records.get(jobId))?.outcome, {
    timeoutMs: 15_000,
  });

const stateOf = async (jobId: string) => (await lab!.queue.queue.getJob(jobId))?.getState();

const delayed = (jobId: string) =>
  waitFor(`${jobId} delayed`, async () => ((await stateOf(jobId)) === 'delayed' ? true : undefined), {
    timeoutMs: 15_000,
  });

const posted = (prefix: string) =>
  waitFor(`a post "${prefix}…"`, async () => lab!.texts().find((text) => text.startsWith(prefix)), {
    timeoutMs: 15_000,
  });

/** Playbook runs other than previews (syntax check, host or task list, check mode): changes to a node. */
const playbooksRun = () =>
  lab!.shell.calls.filter(
    (call) =>
      call.argv[0] === 'ansible-playbook' &&
      !['--syntax-check', '--list-hosts', '--list-tasks', '--check'].some((flag) => call.argv.includes(flag)),
  );

/** An approver's click on the job's pending approval: counted or deciding, never refused. */
async function approve(jobId: string, userId: string) {
  expect((await lab!.clickApproval(jobId, userId)).kind).not.toBe('refused');
}

const outcomesAudited = async (jobId: string) =>
  (await lab!.audit.recent(50))
    .filter((entry) => entry.jobId === jobId && entry.action === 'outcome')
    .map((entry) => `${entry.who} ${entry.what}`);

describe('createJobProcessor in-process (real Redis, real BullMQ worker)', { timeout: labMs(60_000) }, () => {
  it('a verify job runs and settles at once: outcome, last verify, retention and audit together, then the final report', async () => {
    lab = await startInProcessWorker('processor-verify', { replies: healthyHosts });
    const id = await submit({ verb: 'verify', cluster: 'dev' });
    lab.startWorker();

    const outcome = await outcomeOf(id);
    // Read the moment the outcome shows: the rest of the ending landed in the same transaction.
    const [lastVerify, audited, retention] = await Promise.all([
      lab.redis.get(lab.keys.lastVerify('dev')),
      outcomesAudited(id),
      lab.redis.pttl(lab.keys.job(id)),
    ]);
    expect(outcome).toBe('succeeded');
    expect(JSON.parse(lastVerify!)).toMatchObject({ outcome: 'succeeded', jobNumber: 1 });
    expect(audited).toEqual([expect.stringMatching(/^cluster-bot succeeded: /)]);
    expect(retention).toBeGreaterThan(0);
    await posted('✅ job #1 succeeded');
    expect(await lab.clusterLeases.holder('dev')).toBeNull();
  });

  it('a job waiting for approval parks as delayed and keeps its lease for the wait; a cancel then ends it, voiding the approval', async () => {
    lab = await startInProcessWorker('processor-park', { replies: healthyHosts });
    const id = await submit(PACKAGES_PROD);
    lab.startWorker();

    await delayed(id);
    await posted('⏸ approval needed for node-baseline.yml');
    expect((await lab!.approvalOf(id)).state.status).toBe('pending');
    expect((await lab.records.get(id))?.outcome).toBeUndefined();
    // No worker holds it, yet prod stays its own until the approval could expire.
    expect(await lab.clusterLeases.holder('prod')).toBe(id);
    expect(await lab.redis.pttl(lab.keys.lease('prod'))).toBeGreaterThan(APPROVAL_TIMEOUT_MS);
    expect(playbooksRun()).toEqual([]);

    await requestCancel(lab.redis, lab.keys, id, 'U0BOB');
    await lab.queue.promote(id);
    expect(await outcomeOf(id)).toBe('cancelled');
    expect((await lab!.approvalOf(id)).state.status).toBe('void');
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    expect(await outcomesAudited(id)).toEqual([expect.stringMatching(/^cluster-bot cancelled: /)]);
    await posted('❌ job #1 cancelled');
    expect(lab.texts()).toContain('🛑 cancelled by <@U0BOB>');
    expect(playbooksRun()).toEqual([]);
  });

  it('an approval wakes the parked job: it runs the step, settles and lets go of the lease', async () => {
    lab = await startInProcessWorker('processor-approved', { replies: healthyHosts });
    const id = await submit(PACKAGES_PROD);
    lab.startWorker();
    await delayed(id);
    await posted('⏸ approval needed for node-baseline.yml');

    // prod needs two approvers; the click handler then promotes the job.
    await approve(id, 'U0BOB');
    await approve(id, 'U0CAROL');
    await lab.queue.promote(id);
    expect(await outcomeOf(id)).toBe('succeeded');
    expect(playbooksRun()).toHaveLength(1);
    expect((await lab!.approvalOf(id)).state).toMatchObject({ status: 'approved', by: ['U0BOB', 'U0CAROL'] });
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    expect(await outcomesAudited(id)).toEqual([expect.stringMatching(/^cluster-bot succeeded: /)]);
    await posted('✅ job #1 succeeded');
    // Its detached folder on the ops host is named by its id and the random tag of its record, which
    // a job of the same id elsewhere (another deployment, a Redis that lost its data) does not share.
    const { folderTag } = (await lab.records.get(id))!;
    expect(folderTag).toMatch(/^[0-9a-f]{12}$/);
    expect(lab.shell.prunes).toEqual([
      expect.objectContaining({ label: 'ops', jobFolder: `${id}-${folderTag}` }),
    ]);
  });

  it('an approval decided before the job has parked is not missed: the job promotes itself', async () => {
    let id: string | undefined;
    let decided = false;
    lab = await startInProcessWorker('processor-decided-early', {
      replies: healthyHosts,
      // Decided as the board says "waiting", which the worker flushes before it parks the job.
      async onMessage(message) {
        if (decided || !id || !message.text.includes('waiting for approval')) return;
        decided = true;
        await approve(id, 'U0BOB');
        await approve(id, 'U0CAROL');
      },
    });
    id = await submit(PACKAGES_PROD);
    lab.startWorker();

    // Nobody promotes it, and the approval would expire in 30 minutes: it runs at once anyway.
    expect(await outcomeOf(id)).toBe('succeeded');
    expect(decided).toBe(true);
    expect(playbooksRun()).toHaveLength(1);
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
  });

  it('a click that comes as the approval message appears, before its ts is saved, is counted, not refused', async () => {
    let id: string | undefined;
    let early: Promise<ClickVerdict> | undefined;
    lab = await startInProcessWorker('processor-click-at-post', {
      replies: healthyHosts,
      // Slack has the message (and shows the buttons) before the bot has its ts back and saved.
      async onMessage(message) {
        if (early || !id || !message.text.startsWith('⏸ approval needed')) return;
        early = lab!.clickApproval(id, 'U0BOB', `1700000000.${String(lab!.posts.length).padStart(6, '0')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      },
    });
    id = await submit(PACKAGES_PROD);
    lab.startWorker();
    await delayed(id);

    expect(await early).toMatchObject({ kind: 'counted' });
    expect((await lab!.approvalOf(id)).approvals).toEqual(['U0BOB']);
  });

  it('a mutating job queued behind another waits, delayed, until the lease is free, then takes it', async () => {
    lab = await startInProcessWorker('processor-queued', { replies: healthyHosts });
    const first = await submit(PACKAGES_PROD);
    lab.startWorker();
    await delayed(first);
    const second = await submit(PACKAGES_PROD, 'U0BOB', true);

    await delayed(second);
    expect(await lab.clusterLeases.holder('prod')).toBe(first);
    expect(await lab.redis.lrange(lab.keys.waiting('prod'), 0, -1)).toEqual([second]);
    expect((await lab.records.get(second))?.outcome).toBeUndefined();
    expect(lab.texts().some((text) => text.includes('job #2'))).toBe(false);

    await requestCancel(lab.redis, lab.keys, first, 'U0ALICE');
    await lab.queue.promote(first);
    expect(await outcomeOf(first)).toBe('cancelled');
    // Its next try (within two seconds) finds prod free: it takes the lease and starts.
    expect(
      await waitFor('the second job holding prod', async () =>
        (await lab!.clusterLeases.holder('prod')) === second ? true : undefined,
      ),
    ).toBe(true);
    expect(await lab.redis.lrange(lab.keys.waiting('prod'), 0, -1)).toEqual([]);
    await posted('*packages k3s-prod-1* · job #2');
    // The audit alone tells who held prod when: the second started only after the first's outcome.
    const trail = (await lab.audit.recent(50))
      .reverse()
      .filter((entry) => entry.action === 'start' || entry.action === 'outcome')
      .map((entry) => `${entry.action} ${entry.jobId}: ${entry.what.split(':')[0]}`);
    expect(trail).toEqual([
      `start ${first}: holds prod`,
      `outcome ${first}: cancelled`,
      `start ${second}: holds prod`,
    ]);
  });

  it('a job cancelled before it started ends cancelled without running anything or keeping the lease', async () => {
    lab = await startInProcessWorker('processor-cancelled', { replies: healthyHosts });
    const id = await submit(PACKAGES_PROD);
    expect(await lab.clusterLeases.holder('prod')).toBe(id);
    await requestCancel(lab.redis, lab.keys, id, 'U0BOB');
    lab.startWorker();

    expect(await outcomeOf(id)).toBe('cancelled');
    expect(lab.shell.calls).toEqual([]);
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    expect(await outcomesAudited(id)).toEqual([expect.stringMatching(/^cluster-bot cancelled: /)]);
    await posted('❌ job #1 cancelled: cancelled before this step');
    // Who cancelled it is said in the thread, though the cancel came before its root message.
    expect(lab.texts()).toContain('🛑 cancelled by <@U0BOB>');
    // The board shows no step run.
    expect(lab.texts()).toContainEqual(
      expect.stringMatching(/Status: 🛑 cancelled\n.*\n⏭ 1\. .* not run\n⏭ 2\. .* not run$/),
    );
  });

  it('the access re-check at start refuses a requester who lost operator rights since the command was accepted', async () => {
    lab = await startInProcessWorker('processor-refused', { replies: healthyHosts });
    lab.groups.set('S0PLATFORM', ['U0DAVE']);
    const id = await submit(PACKAGES_PROD, 'U0DAVE');
    lab.groups.set('S0PLATFORM', []);
    lab.startWorker();

    expect(await outcomeOf(id)).toBe('cancelled');
    expect(lab.shell.calls).toEqual([]);
    expect(await lab.clusterLeases.holder('prod')).toBeNull();
    const refused = (await lab.audit.recent(50)).filter((entry) => entry.action === 'refused');
    expect(refused.map((entry) => [entry.who, entry.jobId])).toEqual([['U0DAVE', id]]);
    await posted('❌ job #1 cancelled: refused when the job started');
    expect(lab.texts()).toContain(
      '⛔ <@U0DAVE> is not an operator of prod (clusters.prod.operators, else access.operators in its config), so nothing was run.',
    );
  });
});
