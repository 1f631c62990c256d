import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { LifecycleCommand } from '../lifecycle/command/lifecycle-command.js';
import type { JobRecord, JobRecords } from './job-record.js';
import type { RedisKeys } from './redis-keys.js';

export const QUEUE_NAME = 'cluster-jobs';

export interface JobData {
  readonly jobId: string;
}

export interface EnqueueRequest {
  readonly command: LifecycleCommand;
  readonly requestedBy: string;
  readonly channel: string;
}

/** The producer side: a job record first (its number is what people see), then the durable BullMQ job. */
export function createJobQueue(connection: Redis, keys: RedisKeys, records: JobRecords, now: () => number) {
  const queue = new Queue<JobData>(QUEUE_NAME, { connection, prefix: keys.bullPrefix });
  return {
    queue,
    async enqueue(request: EnqueueRequest): Promise<JobRecord> {
      const record = await records.create(request, now());
      await queue.add(
        request.command.verb,
        { jobId: record.id },
        {
          jobId: record.id,
          removeOnComplete: { age: 7 * 86_400, count: 1_000 },
          removeOnFail: { age: 30 * 86_400 },
        },
      );
      return record;
    },
    close: () => queue.close(),
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
