import type { Redis } from 'ioredis';
import { THREAD_ROOT } from '../delivery/delivery.js';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import type { JobRecord } from './job-record.js';
import type { JobThread } from './ports/job-thread.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * Loads (or starts) a job's thread state; the outbox saves it with the operations it explains
 * (src/delivery/create-redis-thread-outbox.ts), so another worker carries on the same thread.
 */
export function createThreadStore(redis: Redis, keys: RedisKeys, alertsChannel: string) {
  return {
    async load(record: JobRecord): Promise<JobThread> {
      const [[, raw], [, threadTs]] = ((await redis
        .multi()
        .get(keys.board(record.id))
        .hget(keys.threadMessages(record.id), THREAD_ROOT)
        .exec()) ?? []) as [[unknown, string | null], [unknown, string | null]];
      if (raw) return { ...(JSON.parse(raw) as JobThread), opened: true, threadTs: threadTs ?? undefined };
      return startedThread(record, alertsChannel);
    },
  };
}

/** The thread of a job never shown: no root message yet, its board the record's. */
export function startedThread(record: JobRecord, alertsChannel: string): JobThread {
  return {
    jobId: record.id,
    channel: record.channel,
    alertsChannel,
    cluster: record.command.cluster,
    threadTs: undefined,
    opened: false,
    board: {
      title: describeCommand(record.command),
      jobNumber: record.number,
      requestedBy: record.requestedBy,
      pageNonce: record.pageNonce,
      rerunOf: record.rerunOf,
      steps: [],
    },
  };
}
