import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Processor, Worker } from 'bullmq';
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
import { profileCpu } from './profile-cpu.js';
import { median, round } from './stats.js';

const JOBS = 300;
/** Rounds timed for the CPU figure (a counted round before them warms the process up, a profiled one follows). */
const ROUNDS = 3;
const CONCURRENCY = 4;
/** Time the drainer gets after the last job to send what is left (Slack answers at once here). */
const DELIVERY_GRACE_MS = 30_000;
/** Places of the profile shown one by one; the rest are summed. */
const PROFILE_PLACES = 12;

export interface ThroughputFigures {
  readonly throughput: {
    jobs: number;
    rounds: number;
    /** The worker process's CPU (user and system) per job: running it, then delivering its thread; median of the rounds. */
    workerCpuMsPerJob: number;
    /**
     * Where that CPU went, in one more round under V8's profiler: that round's CPU per job split by
     * place in the shares of the profile's samples, most first (profile-cpu.ts says what a place is).
     */
    workerCpuProfile: { where: string; msPerJob: number }[];
    /** Jobs per second through the worker (reported: no fleet needs 100 a second). */
    jobsPerSec: number;
    /** Commands and pipelines (one each) sent per job, enqueue to completion, counted client-side. */
    redisRoundTripsPerJob: number;
    /** The threads' delivery apart (outbox claims and takes, the ts kept, the upload's log), after the job. */
    deliveryRoundTripsPerJob: number;
  };
}

/** What a round is for: its Redis round trips counted, its CPU timed, or its CPU profiled. */
type RoundKind = 'counted' | 'timed' | 'profiled';

/** One round's figures: jobs per second, the worker's CPU, and (counted) the Redis round trips all its jobs took. */
interface Round {
  readonly jobsPerSec: number;
  readonly cpuMs: number;
  readonly trips?: number;
  readonly deliveryTrips?: number;
}

/**
 * The worker's cost of a job through the whole job layer (records, thread reporter, checkpoints,
 * audit, job log, the thread's delivery) running a plan that touches nothing remote (`verify dev`
 * against an in-memory healthy cluster, Slack posts answered at once), concurrency 4: the process's
 * CPU per job, where it goes, and the Redis round trips per job. The round trips are counted in a
 * round of their own and the CPU timed in others, so the counting is not in the CPU. Connections are
 * made as the bot makes them (connectRedis from an environment), on the single Redis or the Redis Cluster.
 */
export async function measureThroughput(redis: BenchRedis): Promise<ThroughputFigures> {
  const world = await loadExampleWorld();
  const counted = await engineRound(world, redis, 'counted');
  const timed: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) timed.push(await engineRound(world, redis, 'timed'));
  const profiled = await profileCpu(() => engineRound(world, redis, 'profiled'));
  // The profiler's samples are wall time (on a busy machine, time the process waited for a core
  // too): their shares split the CPU that round took.
  const sampledMs = profiled.places.reduce((sum, { ms }) => sum + ms, 0);
  const perJob = (ms: number) => round(ms / JOBS, 2);
  const places = profiled.places.map(({ where, ms }) => ({
    where,
    ms: (ms / sampledMs) * profiled.result.cpuMs,
  }));
  const shown = places.slice(0, PROFILE_PLACES).map(({ where, ms }) => ({ where, msPerJob: perJob(ms) }));
  const rest = places.slice(PROFILE_PLACES).reduce((sum, { ms }) => sum + ms, 0);
  return {
    throughput: {
      jobs: JOBS,
      rounds: ROUNDS,
      workerCpuMsPerJob: perJob(median(timed.map((one) => one.cpuMs))),
      workerCpuProfile: [...shown, { where: 'everything else', msPerJob: perJob(rest) }],
      jobsPerSec: round(median(timed.map((one) => one.jobsPerSec))),
      redisRoundTripsPerJob: round((counted.trips ?? 0) / JOBS),
      deliveryRoundTripsPerJob: round((counted.deliveryTrips ?? 0) / JOBS),
    },
  };
}

async function engineRound(world: WorldConfig, benchRedis: BenchRedis, kind: RoundKind): Promise<Round> {
  const { env, prefix, cleanup } = benchRedis.space('bench-engine');
  const trips = createRoundTripCounter();
  const watched = (connection: Redis) => (kind === 'counted' ? trips.watch(connection) : connection);
  const connect = () => watched(connectRedis(readEnv(env)));
  const redis = connect();
  // The threads' delivery (the outbox drainer, which any process runs after the job) counts apart.
  const deliveryTrips = createRoundTripCounter();
  const deliveryConnection = connectRedis(readEnv(env));
  const deliveryRedis = kind === 'counted' ? deliveryTrips.watch(deliveryConnection) : deliveryConnection;
  const dataDir = await mkdtemp(join(tmpdir(), 'cb-bench-engine-'));
  const keys = redisKeys(prefix);
  const logger = createLogger({ level: 'silent', redact: createRedactor() });
  const { records, clusterLeases, queue } = createJobStores(
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
      clusterLeases,
      poster: answeringPoster(),
      shell: nodesInMemory,
      logger,
      redact: createRedactor(),
      dataDir,
      deliveryRedis,
    });
    // From the worker's start to the last thread delivered: what the worker process spends on the jobs.
    const cpuBefore = process.cpuUsage();
    const jobsPerSec = await drain(connect(), prefix, processor);
    const jobTrips = trips.count();
    await processor.drainer.stop(Date.now() + DELIVERY_GRACE_MS, Date.now() + DELIVERY_GRACE_MS + 5_000);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (kind !== 'counted') return { jobsPerSec, cpuMs };
    return { jobsPerSec, cpuMs, trips: jobTrips, deliveryTrips: deliveryTrips.count() };
  } finally {
    await queue.close();
    redis.disconnect();
    deliveryRedis.disconnect();
    await cleanup();
    await rm(dataDir, { recursive: true, force: true });
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
