import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorldConfig } from '../config/world-config.js';
import { ClusterBotError } from '../errors.js';
import type { LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import type { AuditLog } from './audit-log.js';
import type { Admission, CommandRateLimit } from './command-rate-limit.js';
import type { JobRecord, JobRef } from './job-record.js';
import { newJobRecord } from './new-job-record.js';
import { recordCommand } from './record-command.js';
import type { RedisKeys } from './redis-keys.js';
import { FLUX_REMINDER_EVERY_MS } from './remind-flux-suspended.js';
import { unrecordCommand } from './unrecord-command.js';

export const QUEUE_NAME = 'cluster-jobs';

/** Until a worker picks a new job up and renews it, its cluster lease lasts this long. */
export const ENQUEUED_LEASE_MS = 10 * 60_000;

/** The waits before BullMQ's add is tried again: a blip of Redis passes, a dead one fails the command in well under a second. */
const ADD_RETRY_WAITS_MS = [50, 200, 500];

/** A command's job, or a scheduled verify of a cluster (created by the job scheduler, no record). */
export type JobData =
  | { readonly jobId: string }
  | { readonly scheduledVerify: string }
  /** The hourly check whether a failed job left Flux suspended on this cluster. */
  | { readonly fluxReminder: string }
  | { readonly scheduledDrift: string };

export const scheduledVerifyId = (cluster: string) => `verify-${cluster}`;
export const fluxReminderId = (cluster: string) => `flux-reminder-${cluster}`;
export const scheduledDriftId = (cluster: string) => `drift-${cluster}`;

export interface EnqueueRequest {
  readonly command: LifecycleCommand;
  readonly requestedBy: string;
  readonly channel: string;
  /** Wait behind the job holding the cluster instead of being refused. */
  readonly queueIfBusy: boolean;
  /** The command's delivery and sender, admitted (dedup, rate limit) with its record; none when admitted already. */
  readonly admission?: Admission | undefined;
  /** The failed or cancelled job this one re-runs. */
  readonly rerunOf?: JobRef | undefined;
}

export type EnqueueResult =
  | { readonly kind: 'queued'; readonly record: JobRecord; readonly position: number }
  | { readonly kind: 'busy'; readonly holderJobId: string; readonly holder: JobRecord | undefined }
  | { readonly kind: 'repeated' | 'limited' };

/**
 * The producer side: the bot's share of a command (admission, number, lease, record, audit entry)
 * in one script, then BullMQ's add, its own call (its script, its keys). A mutating command takes
 * its cluster's lease before its job exists, so of many simultaneous requests exactly one wins; the
 * others are refused, or wait with `--queue`. An add that keeps failing takes the script's writes
 * back (`unrecord-command.ts`) and throws JOB_NOT_QUEUED.
 */
// Long only as a whole: short methods sharing one BullMQ queue, its connection and the lease.
export function createJobQueue(
  connection: Redis,
  keys: RedisKeys,
  deps: {
    readonly audit: AuditLog;
    readonly rateLimit: Pick<CommandRateLimit, 'scriptPart'>;
    /** How long a command's record is kept once it ended (here: once its job could not be queued). */
    readonly retentionMs: number;
  },
  now: () => number,
) {
  const queue = new Queue<JobData>(QUEUE_NAME, { connection, prefix: keys.bullPrefix });
  const add = (verb: string, id: string) =>
    queue.add(
      verb,
      { jobId: id },
      {
        jobId: id,
        removeOnComplete: { age: 7 * 86_400, count: 1_000 },
        removeOnFail: { age: 30 * 86_400 },
      },
    );
  // Tried again as it is: an add whose job exists already (its reply was lost) adds nothing, the job id being fixed.
  const addJob = async (verb: string, id: string) => {
    for (const wait of ADD_RETRY_WAITS_MS) {
      try {
        return await add(verb, id);
      } catch {
        await sleep(wait);
      }
    }
    return add(verb, id);
  };
  return {
    queue,
    async enqueue(request: EnqueueRequest): Promise<EnqueueResult> {
      const fresh = newJobRecord(request, now());
      const recorded = await recordCommand(connection, keys, deps, {
        ...request,
        ...fresh,
        leaseMs: ENQUEUED_LEASE_MS,
      });
      if (recorded.kind === 'busy') {
        const { holderJobId, holderRecord } = recorded;
        return { kind: 'busy', holderJobId, holder: holderRecord ? JSON.parse(holderRecord) : undefined };
      }
      if (recorded.kind !== 'queued') return recorded;
      const { id, number, position } = recorded;
      const record: JobRecord = { id, number, ...fresh };
      try {
        await addJob(request.command.verb, id);
      } catch (cause) {
        // Every reply lost may still hide an add that landed: then the job exists, and is queued after all.
        if (await queue.getJob(id).catch(() => undefined)) return { kind: 'queued', record, position };
        await unrecordCommand(connection, keys, deps, record, request.admission?.deliveryKey, now());
        throw new ClusterBotError('JOB_NOT_QUEUED', `${id} could not be queued; nothing was started`, {
          cause,
        });
      }
      return { kind: 'queued', record, position };
    },
    /** Wakes a job parked for an approval; a job not parked (yet) re-reads its approvals anyway. */
    async promote(jobId: string): Promise<void> {
      const job = await queue.getJob(jobId);
      await job?.promote().catch(() => undefined);
    },
    /** Per cluster: the scheduled verify (verifyEvery) and drift watch (driftEvery), entries of those turned off removed; the Flux reminder. */
    async syncVerifySchedules(world: WorldConfig): Promise<void> {
      for (const cluster of Object.values(world.clusters)) {
        // Every cluster: the reminder costs one Redis read an hour and says nothing unless Flux was left suspended.
        await queue.upsertJobScheduler(
          fluxReminderId(cluster.name),
          { every: FLUX_REMINDER_EVERY_MS },
          {
            name: 'flux-reminder',
            data: { fluxReminder: cluster.name },
            opts: { removeOnComplete: 100, removeOnFail: 100 },
          },
        );
        if (cluster.driftEveryMs === undefined)
          await queue.removeJobScheduler(scheduledDriftId(cluster.name));
        else {
          await queue.upsertJobScheduler(
            scheduledDriftId(cluster.name),
            { every: cluster.driftEveryMs },
            {
              name: 'scheduled-drift',
              data: { scheduledDrift: cluster.name },
              opts: { removeOnComplete: 100, removeOnFail: 100 },
            },
          );
        }
        const id = scheduledVerifyId(cluster.name);
        if (cluster.verifyEveryMs === undefined) await queue.removeJobScheduler(id);
        else {
          await queue.upsertJobScheduler(
            id,
            { every: cluster.verifyEveryMs },
            {
              name: 'scheduled-verify',
              data: { scheduledVerify: cluster.name },
              opts: { removeOnComplete: 100, removeOnFail: 100 },
            },
          );
        }
      }
    },
    close: () => queue.close(),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
