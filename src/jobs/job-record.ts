import type { ChainableCommander, Redis } from 'ioredis';
import type { LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import type { RedisKeys } from './redis-keys.js';
import { requestCancel } from './request-cancel.js';

/** What the bot remembers of a job besides its steps: who asked, where its thread is, how it ended. */
export interface JobRecord {
  readonly id: string;
  readonly number: number;
  readonly command: LifecycleCommand;
  readonly requestedBy: string;
  readonly channel: string;
  readonly createdAt: number;
  /**
   * Random, written with the record: the job page's links are signed over it, so a link never
   * opens another job of the same id (a reset Redis, a reused prefix). Absent on older records.
   */
  readonly pageNonce?: string | undefined;
  /**
   * Random, written with the record, not secret: with the id it names the job's detached folders on
   * hosts (jobFolderName), which another job of the same id never shares. Absent on records of
   * versions before it: their folders keep the bare id, where a resumed step finds its running command.
   */
  readonly folderTag?: string | undefined;
  readonly outcome?: string | undefined;
  readonly finishedAt?: number | undefined;
  /** The failed or cancelled job this one re-runs (`rerun`): its thread and page say so. */
  readonly rerunOf?: JobRef | undefined;
}

/** Another job, as a record names it: where its thread is, so one thread can link the other. */
export interface JobRef {
  readonly jobId: string;
  readonly number: number;
  readonly channel: string;
}

/** How many job ids the recent list keeps: what `jobs` and `status` can look back on. */
export const RECENT_KEPT = 200;

export function createJobRecords(redis: Redis, keys: RedisKeys) {
  const get = async (id: string): Promise<JobRecord | undefined> => {
    const raw = await redis.get(keys.job(id));
    return raw ? (JSON.parse(raw) as JobRecord) : undefined;
  };
  return {
    get,
    /** The newest `count` jobs (at most RECENT_KEPT), newest first; records already retired are left out. */
    async recent(count: number): Promise<JobRecord[]> {
      const ids = await redis.lrange(keys.recentJobs, 0, count - 1);
      const records = await Promise.all(ids.map(get));
      return records.filter((record) => record !== undefined);
    },
    requestCancel: (jobId: string, userId: string) => requestCancel(redis, keys, jobId, userId),
    /**
     * A record the caller already holds, rewritten on its transaction: the worker running a job is
     * the only writer after the job's record is written (by RECORD_COMMAND), so its copy is the record as it is. KEEPTTL: a
     * finished job's record keeps the expiry its retention gave it.
     */
    queueRewrite(multi: ChainableCommander, next: JobRecord): void {
      multi.set(keys.job(next.id), JSON.stringify(next), 'KEEPTTL');
    },
  };
}

export type JobRecords = ReturnType<typeof createJobRecords>;
