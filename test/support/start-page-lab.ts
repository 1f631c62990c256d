import { pino } from 'pino';
import { readEnv } from '../../src/config/read-env.js';
import { createRedisThreadOutbox } from '../../src/delivery/create-redis-thread-outbox.js';
import { createRedisJobFeed } from '../../src/jobs/create-redis-job-feed.js';
import type { JobRef } from '../../src/jobs/job-record.js';
import type { JobFeed } from '../../src/jobs/ports/job-feed.js';
import type { BoardStep } from '../../src/jobs/ports/job-thread.js';
import type { StepView } from '../../src/lifecycle/ports/reporter.js';
import { createJobPages, logStreamLimitsFromEnv, startPageServer } from '../../src/web/index.js';
import { createJobLinks } from '../../src/web/job-links.js';
import type { LogStreamLimits } from '../../src/web/stream-job-log.js';
import { type RedisSpace, startServiceOnRedis } from './cluster-service-on-redis.js';
import { loadExampleWorld } from './example-world.js';
import { freePort } from './free-port.js';

const silent = pino({ level: 'silent' });

/**
 * The job page's server in this process over the real service and Redis, with the worker's real
 * feed writer: a test (or the benchmark) writes a job's log at whatever pace it likes and watches
 * the page, without a playbook behind it. On the test Redis unless given another key space; with
 * the log streams' limits of the environment's defaults unless told others; linking no Slack thread
 * unless given the poster's `permalink`.
 */
export async function startPageLab(
  redis?: RedisSpace,
  limits: Partial<LogStreamLimits> = {},
  threadLink?: (channel: string, ts: string) => string,
) {
  const world = await loadExampleWorld();
  const store = startServiceOnRedis(world, redis ? { redis } : {});
  const port = await freePort();
  const links = createJobLinks({
    baseUrl: `http://127.0.0.1:${port}`,
    key: Buffer.alloc(32, 7),
    ttlMs: 3_600_000,
    now: Date.now,
  });
  const pages = await createJobPages(
    links,
    store.service,
    silent,
    { ...logStreamLimitsFromEnv(readEnv({})), ...limits },
    { threadLink },
  );
  const server = await startPageServer({ host: '127.0.0.1', port }, pages.routes);
  return {
    links,
    pages,
    port,
    redis: store.redis,
    keys: store.keys,
    /** A recorded job whose plan has started (its steps on the board), the feed its worker writes, its page link. */
    async startJob(
      steps: readonly (StepView & Partial<Pick<BoardStep, 'status' | 'detail'>>)[],
      rerunOf?: JobRef,
    ): Promise<{ id: string; feed: JobFeed; url: string }> {
      const queued = await store.queue.enqueue({
        command: { verb: 'verify', cluster: 'dev' },
        requestedBy: 'U0ALICE',
        channel: 'C0OPS',
        queueIfBusy: false,
        rerunOf,
      });
      if (queued.kind !== 'queued') throw new Error(`not queued: ${queued.kind}`);
      const { record } = queued;
      const { id } = record;
      const thread = await store.threads.load(record);
      // The board as a worker saves it: with its thread's messages (none here), in the outbox's write.
      await createRedisThreadOutbox(store.redis, store.keys, 60_000, store.batch).append(
        id,
        [],
        { stream: 'page-lab', first: 0 },
        {
          ...thread,
          board: { ...thread.board, steps: steps.map((step) => ({ status: 'running', ...step })) },
        },
      );
      const feed = createRedisJobFeed(store.redis, store.keys, id, Date.now, silent);
      const views = steps.map(({ status: _status, detail: _detail, ...view }) => view);
      feed.event({ type: 'plan-started', steps: views, resumed: false });
      for (const step of steps) feed.event({ type: 'step-started', stepId: step.id });
      return { id, feed, url: links.url(id, record.pageNonce)! };
    },
    async stop() {
      pages.stop();
      server.close();
      await store.stop();
    },
  };
}
