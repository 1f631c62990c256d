import { Redis } from 'ioredis';
import { pino } from 'pino';
import { readEnv } from '../../src/config/read-env.js';
import { createRedisThreadOutbox } from '../../src/delivery/create-redis-thread-outbox.js';
import { createCommandBatch } from '../../src/jobs/command-batch.js';
import { createJobStores } from '../../src/jobs/create-job-stores.js';
import { createRedisJobFeed } from '../../src/jobs/create-redis-job-feed.js';
import { redisKeys } from '../../src/jobs/redis-keys.js';
import { cancelledBy } from '../../src/jobs/request-cancel.js';
import { loadExampleWorld } from '../support/example-world.js';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { describeServiceStoresContract } from '../support/service-stores-contract.js';

describeServiceStoresContract('on Redis', async () => {
  const { prefix, cleanup } = uniquePrefix('service-stores');
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const keys = redisKeys(prefix);
  const logger = pino({ level: 'silent' });
  const world = await loadExampleWorld();
  const stores = createJobStores(redis, keys, world, logger, () => 1_000, 1, readEnv({}).JOB_RETENTION);
  return {
    ports: stores,
    write: {
      async ended(record) {
        const multi = redis.multi();
        stores.records.queueRewrite(multi, record);
        await multi.exec();
      },
      async approval(jobId, stepId, stored) {
        await redis.hset(keys.approvals(jobId), stepId, JSON.stringify(stored));
      },
      async feed(jobId, lines, events) {
        const feed = createRedisJobFeed(redis, keys, jobId, () => 1_000, logger);
        for (const event of events) feed.event(event);
        for (const text of lines) await feed.line(text);
        feed.end();
        await feed.flush();
      },
      async verified(cluster, verify) {
        await redis.set(keys.lastVerify(cluster), JSON.stringify(verify));
      },
      async fluxSuspended(cluster, note) {
        await redis.set(keys.fluxSuspended(cluster), JSON.stringify(note));
      },
      async alerted(cluster, watch, state) {
        await redis.set(
          watch === 'verify' ? keys.verifyAlerts(cluster) : keys.driftAlerts(cluster),
          JSON.stringify(state),
        );
      },
      async outbox(jobId, operations) {
        const calls = Array.from({ length: operations }, () => 'post');
        await createRedisThreadOutbox(redis, keys, 60_000, createCommandBatch(redis)).append(jobId, calls, {
          stream: 'worker-a',
          first: 0,
        });
      },
    },
    cancelledBy: async (jobId) => (await cancelledBy(redis, keys, jobId)) ?? undefined,
    async stop() {
      await stores.queue.close();
      redis.disconnect();
      await cleanup();
    },
  };
});
