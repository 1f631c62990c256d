import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MRKDWN } from '../../src/bot/mrkdwn.js';
import { layOutDecision } from '../../src/bot/render-decision.js';
import type { SlackMessage, SlackPoster } from '../../src/bot/slack-poster.js';
import { readEnv } from '../../src/config/read-env.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import { handleApprovalClick } from '../../src/conversation/handle-approval-click.js';
import { createAuditLog } from '../../src/jobs/audit-log.js';
import { createClusterLease } from '../../src/jobs/cluster-lease.js';
import { createCommandRateLimit } from '../../src/jobs/command-rate-limit.js';
import { createJobQueue } from '../../src/jobs/create-job-queue.js';
import { createRedisApprovalBook } from '../../src/jobs/create-redis-approval-book.js';
import { createRedisApprovalDesk } from '../../src/jobs/create-redis-approval-desk.js';
import { createRedisClaims } from '../../src/jobs/create-redis-claims.js';
import { createRedisClusterNotes } from '../../src/jobs/create-redis-cluster-notes.js';
import { createRedisHomeWatchList } from '../../src/jobs/create-redis-home-watch-list.js';
import { createRedisHostKeyPins } from '../../src/jobs/create-redis-host-key-pins.js';
import { createJobRecords } from '../../src/jobs/job-record.js';
import { createMemoryCheckpointStore } from '../../src/jobs/memory-checkpoint-store.js';
import { createJobFeedReader } from '../../src/jobs/read-job-feed.js';
import { createRedisOutboxBacklog } from '../../src/jobs/read-outbox-backlog.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { createThreadStore } from '../../src/jobs/thread-store.js';
import { runPlan } from '../../src/lifecycle/engine/run-plan.js';
import type { Plan } from '../../src/lifecycle/plan/plan.js';
import { createMetrics } from '../../src/metrics/create-metrics.js';
import { createClusterService } from '../../src/service/index.js';
import { systemClock } from '../../src/system-clock.js';
import { describeAudit } from '../../src/wording/describe-audit.js';
import { loadExampleWorld } from '../support/example-world.js';
import { labMs } from '../support/lab-time.js';
import { createMemoryKube } from '../support/memory-kube.js';
import { createRecordingReporter } from '../support/recording-reporter.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { createScriptedShell } from '../support/scripted-shell.js';

const ROUNDS = 50;
const STEP = '1-rollout';

/**
 * The bot's click path in-process against real Redis: the real click handler, approval desk,
 * engine, job records, queue and audit log, all on ONE shared connection as in the bot. Slack is a
 * recording poster; the plan is one disruptive step whose run is counted.
 */
function startBot(world: WorldConfig, prefix: string, clock: { now: number | undefined }) {
  const redis = new Redis(REDIS_URL);
  const keys = redisKeys(prefix);
  const records = createJobRecords(redis, keys);
  const logLines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const audit = createAuditLog(redis, keys, logger);
  const now = () => clock.now ?? Date.now();
  const clusterLeases = createClusterLease(redis, keys);
  const rateLimit = createCommandRateLimit(redis, keys, 1_000, now);
  const queue = createJobQueue(
    redis,
    keys,
    { audit, rateLimit, retentionMs: readEnv({}).JOB_RETENTION },
    now,
  );
  const updates: (SlackMessage & { ts: string })[] = [];
  const posts: SlackMessage[] = [];
  const announced = new Map<string, { approvalId: string; messageTs: string }>();
  const closed: string[] = [];
  const poster: SlackPoster = {
    async post(message) {
      posts.push(message);
      return `${Date.now()}.${posts.length}`;
    },
    async update(message) {
      updates.push(message);
    },
    async upload() {},
    permalink: (channel, ts) => `https://slack.test/${channel}/${ts}`,
  };
  const service = createClusterService({
    world,
    approvals: createRedisApprovalBook(redis, keys),
    claims: createRedisClaims(redis, keys),
    homeWatchList: createRedisHomeWatchList(redis, keys),
    clusterNotes: createRedisClusterNotes(redis, keys),
    hostKeyPins: createRedisHostKeyPins(redis, keys, audit),
    outboxBacklog: createRedisOutboxBacklog(redis, keys),
    records,
    threads: createThreadStore(redis, keys, 'C0ALERTS'),
    feed: createJobFeedReader(redis, keys),
    clusterLeases,
    queue,
    audit,
    members: async () => [],
    rateLimit,
    metrics: createMetrics(),
    clock: { now, sleep: systemClock.sleep },
  });
  const runs: string[] = [];
  const plan: Plan = {
    command: { verb: 'cilium', cluster: 'dev' },
    cluster: 'dev',
    steps: [
      {
        id: STEP,
        title: 'the rollout',
        target: 'dev',
        approval: {
          reason: 'restarts every agent',
          mark: '⚠',
          required: async () => true,
          bind: async () => ({ commandLine: 'roll out', targets: 'dev', fingerprint: 'f1' }),
        },
        async run(ctx) {
          runs.push(ctx.jobId);
          return { status: 'succeeded', summary: 'rolled out' };
        },
      },
    ],
  };
  const job = (jobId: string) => {
    const checkpoints = createMemoryCheckpointStore();
    const reporter = createRecordingReporter();
    const approvals = createRedisApprovalDesk(redis, keys, jobId, 30 * 60_000, now, {
      async announce(_jobId, approvalId) {
        const messageTs = `${jobId}.message`;
        announced.set(jobId, { approvalId, messageTs });
        return messageTs;
      },
      async remind() {},
      async close(_jobId, stored) {
        closed.push(`${jobId} ${stored.state.status}`);
      },
    });
    // What a worker does each time it picks the job up.
    const run = () =>
      runPlan(plan, {
        jobId,
        world,
        shell: createScriptedShell(() => undefined),
        kube: createMemoryKube().kube,
        clock: { now, sleep: async () => undefined },
        checkpoints,
        approvals,
        reporter,
        signal: new AbortController().signal,
      });
    return { run, approvals };
  };
  const click = (jobId: string, userId: string, decision: 'approve' | 'reject', value?: string) => {
    const { approvalId, messageTs } = announced.get(jobId)!;
    return handleApprovalClick(
      { userId, decision, value: value ?? approvalId, channel: 'C0OPS', messageTs },
      { marks: MRKDWN, layOutDecision, service, poster },
    );
  };
  return {
    queue,
    audit,
    logLines,
    updates,
    posts,
    announced,
    closed,
    runs,
    job,
    click,
    async stop() {
      await queue.close();
      redis.disconnect();
    },
  };
}

let world: WorldConfig;
let prefix: ReturnType<typeof uniquePrefix>;
let bot: ReturnType<typeof startBot> | undefined;
const clock: { now: number | undefined } = { now: undefined };

beforeEach(async () => {
  const example = await loadExampleWorld();
  const dev = example.clusters.dev!;
  world = {
    ...example,
    clusters: {
      ...example.clusters,
      dev: {
        ...dev,
        approvers: ['U0ALICE', 'U0BOB', 'U0CAROL'],
        requiredApprovals: 1,
        allowSelfApproval: false,
      },
    },
  };
  prefix = uniquePrefix('approval-race');
  clock.now = undefined;
});
afterEach(async () => {
  await bot?.stop();
  bot = undefined;
  await prefix.cleanup();
});

/** A `cilium dev` job as a command makes one (waiting behind the previous round's, which keeps the lease), run up to its approval. */
async function newJob() {
  const queued = await bot!.queue.enqueue({
    command: { verb: 'cilium', cluster: 'dev' },
    requestedBy: 'U0ALICE',
    channel: 'C0OPS',
    queueIfBusy: true,
  });
  if (queued.kind !== 'queued') throw new Error(`not queued: ${queued.kind}`);
  const jobId = queued.record.id;
  const job = bot!.job(jobId);
  expect(await job.run()).toMatchObject({ status: 'waiting', stepId: STEP });
  return { jobId, ...job };
}

describe('approval clicks against real Redis', { timeout: labMs(120_000) }, () => {
  it('50 rounds of Approve and Reject at the same instant: one decision, the thread and the run agree, a Reject is final', async () => {
    bot = startBot(world, prefix.prefix, clock);
    const disagreements: string[] = [];
    const decisions = { approved: 0, rejected: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const { jobId, run, approvals } = await newJob();
      const messageTs = bot.announced.get(jobId)!.messageTs;
      // Both orders, sent together on the one connection the bot shares between requests.
      const clicks: [string, 'approve' | 'reject'][] = [
        ['U0BOB', 'approve'],
        ['U0CAROL', 'reject'],
      ];
      if (round % 2 === 0) clicks.reverse();
      const answers = await Promise.all(clicks.map(([user, decision]) => bot!.click(jobId, user, decision)));
      const result = await run();
      // A later Approve cannot undo a recorded Reject (nor re-decide an approval).
      const late = await bot.click(jobId, 'U0BOB', 'approve');

      const state = await approvals.state(STEP);
      const thread = bot.updates.filter((update) => update.ts === messageTs).map((update) => update.text);
      const ran = bot.runs.includes(jobId);
      const refused = answers.filter((answer) => answer?.startsWith('⛔ this approval is no longer pending'));
      const agrees =
        (state.status === 'approved' || state.status === 'rejected') &&
        thread.length === 1 &&
        thread[0]!.includes(
          state.status === 'approved' ? 'approved by <@U0BOB>' : 'rejected by <@U0CAROL>',
        ) &&
        ran === (state.status === 'approved') &&
        result.status === 'finished' &&
        result.outcome === (state.status === 'approved' ? 'succeeded' : 'rejected') &&
        refused.length === 1 &&
        late === `⛔ this approval is no longer pending (${state.status}); nothing changed.`;
      if (!agrees)
        disagreements.push(`round ${round}: ${JSON.stringify({ state, thread, ran, result, answers })}`);
      if (state.status === 'approved' || state.status === 'rejected') decisions[state.status]++;
    }
    expect(disagreements).toEqual([]);
    expect(decisions.approved + decisions.rejected).toBe(ROUNDS);
  });

  it('two approvals at the same instant on a two-approver cluster are both counted: approved, and the step runs', async () => {
    const dev = world.clusters.dev!;
    world = { ...world, clusters: { ...world.clusters, dev: { ...dev, requiredApprovals: 2 } } };
    bot = startBot(world, prefix.prefix, clock);
    for (let round = 1; round <= 20; round++) {
      const { jobId, run, approvals } = await newJob();
      await Promise.all([bot.click(jobId, 'U0BOB', 'approve'), bot.click(jobId, 'U0CAROL', 'approve')]);
      expect(await run()).toMatchObject({ status: 'finished', outcome: 'succeeded' });
      expect(await approvals.state(STEP)).toMatchObject({
        status: 'approved',
        by: expect.arrayContaining(['U0BOB', 'U0CAROL']),
      });
    }
    expect(bot.runs).toHaveLength(20);
  });

  it('a repeated approval is audited as a refused click, not as a second approval', async () => {
    const dev = world.clusters.dev!;
    world = { ...world, clusters: { ...world.clusters, dev: { ...dev, requiredApprovals: 2 } } };
    bot = startBot(world, prefix.prefix, clock);
    const { jobId } = await newJob();
    expect(await bot.click(jobId, 'U0BOB', 'approve')).toBeUndefined();
    expect(await bot.click(jobId, 'U0BOB', 'approve')).toBe(
      'Your approval is already counted; 1 more needed.',
    );
    const trail = (await bot.audit.recent(2)).reverse();
    expect(trail.map(({ who, action, what }) => ({ who, action, what }))).toEqual([
      { who: 'U0BOB', action: 'approve', what: 'the rollout (1/2)' },
      { who: 'U0BOB', action: 'click-refused', what: 'approve the rollout: already counted' },
    ]);
  });

  it('every click is in the audit trail and the JSON logs: who, what, when, on which job, step and approval', async () => {
    clock.now = Date.UTC(2026, 10, 30, 12, 0);
    bot = startBot(world, prefix.prefix, clock);
    const { jobId } = await newJob();
    const { approvalId } = bot.announced.get(jobId)!;
    expect(await bot.click(jobId, 'U0MALLORY', 'approve')).toBe(
      '⛔ you are not an approver of this cluster; nothing changed.',
    );
    expect(await bot.click(jobId, 'U0ALICE', 'approve')).toMatch(/does not allow self-approval/);
    expect(await bot.click(jobId, 'U0CAROL', 'reject')).toBeUndefined();
    expect(await bot.click(jobId, 'U0BOB', 'approve')).toMatch(/no longer pending \(rejected\)/);

    const [command, ...trail] = (await bot.audit.recent(10)).reverse();
    expect(command).toMatchObject({ who: 'U0ALICE', action: 'command', what: 'cilium dev', jobId });
    const onRequest = { jobId, cluster: 'dev', stepId: STEP, approvalId, at: clock.now, via: 'thread' };
    expect(trail).toEqual([
      {
        ...onRequest,
        who: 'U0MALLORY',
        action: 'click-refused',
        what: 'approve the rollout: you are not an approver of this cluster',
      },
      {
        ...onRequest,
        who: 'U0ALICE',
        action: 'click-refused',
        what: 'approve the rollout: you asked for this job, and this cluster does not allow self-approval',
      },
      { ...onRequest, who: 'U0CAROL', action: 'reject', what: 'the rollout: rejected' },
      {
        ...onRequest,
        who: 'U0BOB',
        action: 'click-refused',
        what: 'approve the rollout: this approval is no longer pending (rejected)',
      },
    ]);
    // What `/cluster audit` shows.
    expect(describeAudit(trail.slice(2, 3), MRKDWN)).toBe(
      `Audit trail (newest first):\n• 2026-11-30 12:00:00 UTC <@U0CAROL> reject (thread) [#1 step ${STEP} approval ${approvalId}]: the rollout: rejected`,
    );
    const logged = bot.logLines.filter((line) => line.audit === true && line.action !== 'command');
    expect(
      logged.map(({ who, action, jobId, cluster, stepId, approvalId, at, via }) => ({
        who,
        action,
        jobId,
        cluster,
        stepId,
        approvalId,
        at,
        via,
      })),
    ).toEqual(trail.map(({ who, action }) => ({ who, action, ...onRequest })));

    // A forged value is refused and recorded without echoing it.
    expect(await bot.click(jobId, 'U0MALLORY', 'approve', 'job-1.1-rollout.zz<!channel>')).toBe(
      '⛔ This button does not match a pending approval; nothing changed.',
    );
    const [forged] = await bot.audit.recent(1);
    expect(forged).toMatchObject({
      who: 'U0MALLORY',
      action: 'click-refused',
      jobId: undefined,
      approvalId: undefined,
    });
    expect(JSON.stringify(forged)).not.toContain('<!channel>');
  });

  it('a click after the expiry is refused at click time, with the reason, though no worker has expired it', async () => {
    bot = startBot(world, prefix.prefix, clock);
    const { jobId, approvals } = await newJob();
    const pending = await approvals.state(STEP);
    if (pending.status !== 'pending') throw new Error(`expected a pending approval, got ${pending.status}`);
    clock.now = pending.expiresAt + 1;
    const at = new Date(pending.expiresAt).toISOString().slice(11, 16);
    expect(await bot.click(jobId, 'U0BOB', 'approve')).toBe(
      `⛔ this approval expired at ${at} UTC; nothing changed.`,
    );
    expect(await approvals.state(STEP)).toMatchObject({ status: 'pending' });
    expect(bot.updates).toEqual([]);
    expect(bot.runs).toEqual([]);
    const [entry] = await bot.audit.recent(1);
    expect(entry).toMatchObject({
      who: 'U0BOB',
      action: 'click-refused',
      what: `approve the rollout: this approval expired at ${at} UTC`,
    });
  });
});
