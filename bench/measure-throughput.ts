import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Processor, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis } from '../src/app/connect-redis.js';
import type { SlackPoster } from '../src/bot/slack-poster.js';
import { readEnv } from '../src/config/read-env.js';
import type { WorldConfig } from '../src/config/world-config.js';
import { QUEUE_NAME } from '../src/jobs/create-job-queue.js';
import { createJobStores } from '../src/jobs/create-job-stores.js';
import type { RunShell } from '../src/jobs/ports/run-shell.js';
import { redisKeys } from '../src/jobs/redis-keys.js';
import { createLogger } from '../src/log/create-logger.js';
import { createRedactor } from '../src/log/create-redactor.js';
import { createInProcessProcessor } from '../test/support/create-in-process-processor.js';
import { loadExampleWorld } from '../test/support/example-world.js';
import { answerK3sServer, K3S_SERVER_CONFIG } from '../test/support/k3s-server-replies.js';
import type { BenchRedis } from './bench-redis.js';
import { createRoundTripCounter } from './count-round-trips.js';
import { median, round } from './stats.js';

const JOBS = 300;
const ROUNDS = 3;
const CONCURRENCY = 4;
/** Time the drainer gets after the last job to send what is left (Slack answers at once here). */
const DELIVERY_GRACE_MS = 30_000;

export interface ThroughputFigures {
  readonly throughput: {
    jobsPerSec: number;
    bareBullmqJobsPerSec: number;
    ratio: number;
    jobs: number;
    rounds: number;
    /** Commands and pipelines (one each) sent per job, enqueue to completion, counted client-side. */
    redisRoundTripsPerJob: number;
    bareBullmqRoundTripsPerJob: number;
    /** The threads' delivery apart (outbox leases, reads, takes, the upload's log), after the job. */
    deliveryRoundTripsPerJob: number;
  };
}

/** One round's figures: jobs per second and the Redis round trips all its jobs took. */
interface Round {
  readonly jobsPerSec: number;
  readonly trips: number;
  readonly deliveryTrips?: number;
}

/**
 * Jobs per second through the whole job layer (records, thread reporter, checkpoints, audit, job
 * log) running a plan that touches nothing (`verify dev` against an in-memory healthy cluster, Slack
 * posts answered at once), against a bare BullMQ worker doing nothing: same Redis, same
 * concurrency (4), rounds alternated, medians compared. Connections are made as the bot makes them
 * (connectRedis from an environment), on the single Redis or the Redis Cluster.
 */
export async function measureThroughput(redis: BenchRedis): Promise<ThroughputFigures> {
  const world = await loadExampleWorld();
  const engine: Round[] = [];
  const bare: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    engine.push(await engineRound(world, redis));
    bare.push(await bareRound(redis));
  }
  const perSec = (rounds: readonly Round[]) => median(rounds.map((one) => one.jobsPerSec));
  const tripsPerJob = (rounds: readonly Round[], of: (one: Round) => number = (one) => one.trips) =>
    round(rounds.reduce((sum, one) => sum + of(one), 0) / (JOBS * rounds.length));
  return {
    throughput: {
      jobsPerSec: round(perSec(engine)),
      bareBullmqJobsPerSec: round(perSec(bare)),
      ratio: round(perSec(engine) / perSec(bare), 3),
      jobs: JOBS,
      rounds: ROUNDS,
      redisRoundTripsPerJob: tripsPerJob(engine),
      bareBullmqRoundTripsPerJob: tripsPerJob(bare),
      deliveryRoundTripsPerJob: tripsPerJob(engine, (one) => one.deliveryTrips ?? 0),
    },
  };
}

async function engineRound(world: WorldConfig, benchRedis: BenchRedis): Promise<Round> {
  const { env, prefix, cleanup } = benchRedis.space('bench-engine');
  const trips = createRoundTripCounter();
  const connect = () => trips.watch(connectRedis(readEnv(env)));
  const redis = connect();
  // The threads' delivery (the outbox drainer, which any process runs after the job) counts apart.
  const deliveryTrips = createRoundTripCounter();
  const deliveryRedis = deliveryTrips.watch(connectRedis(readEnv(env)));
  const dataDir = await mkdtemp(join(tmpdir(), 'cb-bench-engine-'));
  const keys = redisKeys(prefix);
  const logger = createLogger({ level: 'silent', redact: createRedactor() });
  const { records, lock, queue } = createJobStores(
    redis,
    keys,
    world,
    logger,
    Date.now,
    JOBS,
    readEnv(env).JOB_RETENTION,
  );
  try {
    for (let i = 0; i < JOBS; i++) {
      await queue.enqueue({
        command: { verb: 'verify', cluster: 'dev' },
        requestedBy: 'U0ALICE',
        channel: 'C0OPS',
        queueIfBusy: false,
      });
    }
    const processor = createInProcessProcessor({
      world,
      redis,
      keys,
      records,
      lock,
      poster: answeringPoster(),
      shell: nodesInMemory,
      logger,
      redact: createRedactor(),
      dataDir,
      deliveryRedis,
    });
    const jobsPerSec = await drain(connect(), prefix, processor);
    const jobTrips = trips.count();
    await processor.drainer.stop(Date.now() + DELIVERY_GRACE_MS);
    return { jobsPerSec, trips: jobTrips, deliveryTrips: deliveryTrips.count() };
  } finally {
    await queue.close();
    redis.disconnect();
    deliveryRedis.disconnect();
    await cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function bareRound(benchRedis: BenchRedis): Promise<Round> {
  const { env, prefix, cleanup } = benchRedis.space('bench-bare');
  const trips = createRoundTripCounter();
  const connect = () => trips.watch(connectRedis(readEnv(env)));
  const connection = connect();
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  try {
    for (let i = 0; i < JOBS; i++) await queue.add('noop', { i });
    return { jobsPerSec: await drain(connect(), prefix, async () => 'ok'), trips: trips.count() };
  } finally {
    await queue.close();
    connection.disconnect();
    await cleanup();
  }
}

/** Starts a worker on a filled queue and returns jobs per second until the last one completed. */
async function drain<Data>(connection: Redis, prefix: string, processor: Processor<Data>): Promise<number> {
  let completed = 0;
  let failed = 0;
  const started = performance.now();
  const worker = new Worker<Data>(QUEUE_NAME, processor, { connection, prefix, concurrency: CONCURRENCY });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('completed', () => {
        if (++completed === JOBS) resolve();
      });
      worker.on('failed', (_job, error) => {
        failed++;
        reject(new Error(`a benchmark job failed (${failed}): ${error.message}`));
      });
    });
    return JOBS / ((performance.now() - started) / 1000);
  } finally {
    await worker.close();
    connection.disconnect();
  }
}

/** Slack stubbed out: every post answered at once, as if Slack took no time. */
function answeringPoster(): SlackPoster {
  let ts = 0;
  return {
    post: async () => `1764400000.${String(++ts).padStart(6, '0')}`,
    update: async () => undefined,
    upload: async () => undefined,
    permalink: (channel, messageTs) => `https://slack.invalid/archives/${channel}/p${messageTs}`,
  };
}

/** A verify plan runs nothing remote; a call here would mean the benchmark measures the wrong thing. */
/** A verify reads each server's k3s config and snapshots over SSH; here those answers come from memory, as the cluster's do. */
const nodesInMemory: RunShell = {
  async exec(target, request) {
    const call = { argv: request.argv, target: target.label };
    for (const line of answerK3sServer(call, K3S_SERVER_CONFIG, Date.now() - 3_600_000)?.stdout ?? []) {
      await request.onLine?.(line, 'stdout');
    }
    return { exitCode: 0, signal: null, durationMs: 0 };
  },
  runDetached: () => Promise.reject(new Error('a verify runs nothing detached')),
  probeDetached: () => Promise.reject(new Error('a verify runs nothing detached')),
  pruneDetached: () => Promise.reject(new Error('a verify runs nothing detached')),
  probeHostKey: () => Promise.reject(new Error('the throughput benchmark dials no host')),
  close: async () => undefined,
};
