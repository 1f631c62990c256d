import { type Processor, Worker } from 'bullmq';
import type { Env } from '../config/read-env.js';
import { QUEUE_NAME } from '../jobs/create-job-queue.js';
import type { RedisKeys } from '../jobs/redis-keys.js';
import type { Logger } from '../log/create-logger.js';
import { connectRedis } from './connect-redis.js';

/** The BullMQ worker of this process; `stop` resolves true once its jobs let go, false at the grace deadline. */
export function startWorker(env: Env, keys: RedisKeys, processor: Processor, logger: Logger) {
  const worker = new Worker(QUEUE_NAME, processor, {
    connection: connectRedis(env),
    prefix: keys.bullPrefix,
    concurrency: 4,
    lockDuration: env.JOB_LOCK_DURATION,
    stalledInterval: env.JOB_STALLED_INTERVAL,
  });
  worker.on('failed', (job, error) => logger.error({ err: error, jobId: job?.id }, 'job failed'));
  return {
    /**
     * Stops taking jobs and gives the running steps the grace period. A step still running then is
     * left checkpointed as running, and the job, no longer locked by this worker, is resumed by
     * another one: a detached command (a mutating playbook) goes on and is followed again; any other
     * remote command ends with its SSH connection and runs again (after a fresh approval if disruptive).
     */
    async stop(): Promise<boolean> {
      const closed = worker.close().then(() => true);
      const graceOver = new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), env.SHUTDOWN_GRACE_SECONDS * 1_000).unref(),
      );
      if (await Promise.race([closed, graceOver])) return true;
      logger.warn(
        { graceSeconds: env.SHUTDOWN_GRACE_SECONDS },
        'grace period over: leaving running jobs to another worker',
      );
      return false;
    },
  };
}
