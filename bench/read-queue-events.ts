import type { Redis } from 'ioredis';
import { QUEUE_NAME } from '../src/jobs/create-job-queue.js';
import type { RedisKeys } from '../src/jobs/redis-keys.js';
import type { QueueEvent } from './find-lost-jobs.js';

/** BullMQ trims its events stream near this many entries (its default `streams.events.maxLen`). */
const EVENTS_MAX_LEN = 10_000;

/**
 * Every entry of the job queue's BullMQ events stream, oldest first. Throws once the stream has
 * been trimmed: a count from a stream missing its start would report jobs as lost that were not.
 */
export async function readQueueEvents(redis: Redis, keys: RedisKeys): Promise<QueueEvent[]> {
  const key = `${keys.bullPrefix}:${QUEUE_NAME}:events`;
  const rows = await redis.xrange(key, '-', '+');
  if (rows.length >= EVENTS_MAX_LEN * 0.9)
    throw new Error(`the queue's events stream holds ${rows.length} entries: it may have been trimmed`);
  return rows.map(([, fields]) => {
    const value = (name: string) => fields[fields.indexOf(name) + 1];
    return { event: value('event') ?? '', jobId: value('jobId') ?? '', name: value('name') };
  });
}
