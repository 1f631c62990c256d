import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { GroupMembers } from '../../src/access/access-policy.js';
import type { SlackMessage, SlackPoster } from '../../src/bot/slack-poster.js';
import { readEnv } from '../../src/config/read-env.js';
import type { WorldConfig } from '../../src/config/world-config.js';
import type { RunningDrainer } from '../../src/delivery/create-delivery.js';
import { QUEUE_NAME } from '../../src/jobs/create-job-queue.js';
import { createJobStores } from '../../src/jobs/create-job-stores.js';
import type { StoredApproval } from '../../src/jobs/ports/approval-announcer.js';
import { recordApprovalClick } from '../../src/jobs/record-approval-click.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import type { ClickVerdict } from '../../src/lifecycle/approval/decide-approval.js';
import type { LifecycleCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import type { Logger } from '../../src/log/create-logger.js';
import { systemClock } from '../../src/system-clock.js';
import { createInProcessProcessor } from './create-in-process-processor.js';
import { loadExampleWorld } from './example-world.js';
import { REDIS_URL, uniquePrefix } from './redis-prefix.js';
import { createScriptedShell, type ScriptedReply, type ShellCall } from './scripted-shell.js';

export interface InProcessWorkerOptions {
  /** Default: the example config. */
  readonly world?: WorldConfig;
  /** How the ops host and the nodes answer; default: every command succeeds, printing nothing. */
  readonly replies?: (call: ShellCall) => ScriptedReply | undefined;
  /** User groups (id → members), edited by the test as it goes; default: a new empty map. */
  readonly groups?: Map<string, string[]>;
  /** Runs as each message is posted or updated, before Slack answers (the worker waits for it). */
  readonly onMessage?: (message: SlackMessage) => Promise<void>;
  /**
   * Another Redis than the shared one (a Redis Cluster of the test's own), with the key prefix to
   * use there; the test stops that Redis, so nothing is cleaned up key by key.
   */
  readonly redis?: { readonly connect: () => Redis; readonly prefix: string };
  /** How often a running job renews its lease; default the processor's. */
  readonly leaseRenewMs?: number;
  /** Default: silent. */
  readonly logger?: Logger;
}

/**
 * The job layer in this process against real Redis under a prefix of its own: the real queue, the
 * real processor on real BullMQ workers (started when the test says), Slack as a recording poster
 * and user groups as a map the test edits. Nothing is spawned, so a test takes seconds.
 */
export async function startInProcessWorker(name: string, options: InProcessWorkerOptions = {}) {
  const world = options.world ?? (await loadExampleWorld());
  const shared = uniquePrefix(name);
  const { prefix, cleanup } = options.redis
    ? { prefix: options.redis.prefix, cleanup: async () => {} }
    : shared;
  const connect = options.redis?.connect ?? (() => new Redis(REDIS_URL, { maxRetriesPerRequest: null }));
  const redis = connect();
  const keys = redisKeys(prefix);
  const logger = options.logger ?? pino({ level: 'silent' });
  const stores = createJobStores(redis, keys, world, logger, Date.now, 1_000, readEnv({}).JOB_RETENTION);
  const { records, clusterLeases, queue } = stores;
  const groups = options.groups ?? new Map<string, string[]>();
  const members: GroupMembers = async (groupId) => groups.get(groupId) ?? [];
  const posts: SlackMessage[] = [];
  const poster: SlackPoster = {
    async post(message) {
      posts.push(message);
      await options.onMessage?.(message);
      return `1700000000.${String(posts.length).padStart(6, '0')}`;
    },
    async update(message) {
      posts.push(message);
      await options.onMessage?.(message);
    },
    async upload(file) {
      posts.push({ channel: file.channel, threadTs: file.threadTs, text: file.comment ?? '' });
    },
    permalink: (channel, ts) => `https://slack.test/${channel}/${ts}`,
  };
  const shell = createScriptedShell(options.replies ?? (() => undefined));
  const dataDir = await mkdtemp(join(tmpdir(), `cb-${name}-`));
  /** Each worker with the connection it was given: BullMQ uses it as is and leaves it open at close(). */
  const workers: { worker: Worker; given: Redis }[] = [];
  const drainers: RunningDrainer[] = [];
  /** The job's only approval as stored. */
  const approvalOf = async (jobId: string): Promise<StoredApproval> => {
    const [raw] = Object.values(await redis.hgetall(keys.approvals(jobId)));
    if (!raw) throw new Error(`${jobId} has no approval`);
    return JSON.parse(raw) as StoredApproval;
  };
  /** A processor as a worker runs it (with its own outbox drainer, stopped with the lab), to start a job with directly. */
  const processorOf = (loaded: WorldConfig = world) => {
    const parts = { redis, keys, records, clusterLeases, poster, logger, shell, dataDir, members };
    const processor = createInProcessProcessor({
      ...parts,
      world: loaded,
      ...(options.leaseRenewMs !== undefined && { leaseRenewMs: options.leaseRenewMs }),
    });
    drainers.push(processor.drainer);
    return processor;
  };
  return {
    ...stores,
    world,
    logger,
    groups,
    members,
    posts,
    shell,
    /** The texts posted or updated so far, oldest first. */
    texts: () => posts.map((post) => post.text),
    approvalOf,
    /** A command enqueued by `requestedBy` in C0OPS, as the service would: its job id, or an error when refused. */
    async submit(command: LifecycleCommand, requestedBy = 'U0ALICE', queueIfBusy = false): Promise<string> {
      const result = await stores.queue.enqueue({ command, requestedBy, channel: 'C0OPS', queueIfBusy });
      if (result.kind !== 'queued') throw new Error(`${command.verb} was refused: busy`);
      return result.record.id;
    },
    /**
     * An approver's click on the job's pending approval, as the click handler records it: on the
     * approval's own message unless `messageTs` says which message the button was on.
     */
    async clickApproval(jobId: string, userId: string, messageTs?: string): Promise<ClickVerdict> {
      const stored = await approvalOf(jobId);
      if (stored.state.status !== 'pending') throw new Error(`no pending approval: ${stored.state.status}`);
      const target = {
        jobId,
        stepId: stored.request!.stepId,
        approvalId: stored.state.id,
        messageTs: messageTs ?? stored.messageTs!,
      };
      const cluster = world.clusters[stored.request!.cluster]!;
      const click = {
        userId,
        decision: 'approve',
        isApprover: true,
        requestedBy: 'U0ALICE',
        at: Date.now(),
      } as const;
      return (await recordApprovalClick(redis, keys, target, click, cluster, systemClock)).verdict;
    },
    processor: processorOf,
    /** A worker started now, with the config it loaded now. */
    startWorker(loaded: WorldConfig = world) {
      const processor = processorOf(loaded);
      const given = connect();
      workers.push({
        worker: new Worker(QUEUE_NAME, processor, { connection: given, prefix: keys.bullPrefix }),
        given,
      });
    },
    async stop() {
      for (const { worker, given } of workers) {
        // close() quits the blocking connection BullMQ duplicated; the given one is ours to disconnect.
        // Not with worker.disconnect(): on a Redis Cluster the quit one can read 'close' again after
        // its 'end' (each node's late end re-marks it), and disconnect() then waits for an 'end' that
        // a Cluster with no nodes left never emits: it hung the hook for its whole timeout now and then.
        await worker.close();
        given.disconnect();
      }
      for (const drainer of drainers) await drainer.stop(Date.now() + 5_000, Date.now() + 10_000);
      await queue.close();
      redis.disconnect();
      await rm(dataDir, { recursive: true, force: true });
      await cleanup();
    },
  };
}

export type InProcessWorker = Awaited<ReturnType<typeof startInProcessWorker>>;
