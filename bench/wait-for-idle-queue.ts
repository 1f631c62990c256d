import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from '../src/jobs/create-job-queue.js';
import { redisKeys } from '../src/jobs/redis-keys.js';
import { REDIS_URL } from '../test/support/redis-prefix.js';

/**
 * Waits until the bot's queue under `prefix` has nothing waiting, delayed or running, so one
 * figure's jobs do not load the next figure's measurement.
 */
export async function waitForIdleQueue(prefix: string, timeoutMs = 300_000): Promise<void> {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAME, { connection, prefix: redisKeys(prefix).bullPrefix });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((count) => count === 0)) return;
      if (Date.now() > deadline)
        throw new Error(`queue still busy after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
