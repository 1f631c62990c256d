import type { Redis } from 'ioredis';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import type { JobRecord } from './job-record.js';
import type { JobThread } from './ports/job-thread.js';
import type { RedisKeys } from './redis-keys.js';

/** Loads (or starts) a job's thread state; saving it lets another worker carry on the same thread. */
export function createThreadStore(redis: Redis, keys: RedisKeys, alertsChannel: string) {
  return {
    async load(record: JobRecord): Promise<JobThread> {
      const raw = await redis.get(keys.board(record.id));
      if (raw) return JSON.parse(raw) as JobThread;
      return {
        jobId: record.id,
        channel: record.channel,
        alertsChannel,
        cluster: record.command.cluster,
        threadTs: undefined,
        board: {
          title: describeCommand(record.command),
          jobNumber: record.number,
          requestedBy: record.requestedBy,
          steps: [],
        },
      };
    },
    async save(thread: JobThread): Promise<void> {
      // KEEPTTL: the final save lands after the job finished and was given its retention.
      await redis.set(keys.board(thread.jobId), JSON.stringify(thread), 'KEEPTTL');
    },
  };
}
