import { connectRedis } from '../src/app/connect-redis.js';
import { readEnv } from '../src/config/read-env.js';
import { createAuditLog } from '../src/jobs/audit-log.js';
import { redisKeys } from '../src/jobs/redis-keys.js';
import { createLogger } from '../src/log/create-logger.js';
import { createRedactor } from '../src/log/create-redactor.js';
import { startOwnRedis } from '../test/support/start-own-redis.js';
import { type BenchLab, type LogEntry, startBenchLab } from './bench-lab.js';
import type { BenchRedis } from './bench-redis.js';
import { findLostJobs } from './find-lost-jobs.js';
import { findOverlaps } from './find-overlaps.js';
import { rssMb } from './measure-memory.js';
import { readQueueEvents } from './read-queue-events.js';
import { redisUsedMemory } from './redis-used-memory.js';
import { percentile, round } from './stats.js';

const CLUSTERS = 24;
const VERIFY_EVERY_MS = 60_000;
/** Bursts of four `packages … --queue`, two on each of two clusters: 20 mutating jobs, the lease contended. */
const BURSTS = 5;
const STATUS_EVERY_MS = 5_000;
/** Time for the last jobs of the window to end (a queued packages job waits for the one before it). */
const DRAIN_MS = 240_000;

export interface FleetFigures {
  readonly fleet: {
    clusters: number;
    minutes: number;
    /** Scheduled verifies due in the window plus the commands' jobs. */
    jobs: number;
    scheduledVerifies: number;
    commandJobs: number;
    /** Jobs of `jobs` with neither a completed nor a failed event once the window drained. */
    jobsLost: number;
    /** Jobs that ended failed (an outcome, not lost); scheduled verifies whose gates did not pass. */
    jobsFailed: number;
    verifiesNotPassed: number;
    /** Two mutating jobs holding one cluster at once, from the audit trail's start and outcome entries. */
    overlaps: number;
    /** 429s fake Slack answered over the whole run. */
    rateLimited: number;
    /** Acks of every slash command of the window: the 20 mutating ones and a `status` every 5 s. */
    ackP99: number;
    ackN: number;
    /** Mean RSS of the three workers once every cluster had its first scheduled verify, and at the end. */
    rssStartMb: number;
    rssEndMb: number;
    /** Growth of Redis's used_memory over the window, per job that ended. */
    redisBytesPerJob: number;
  };
}

/**
 * The scale-out run: 24 clusters (each its own kube-sim and inventory groups), one bot and three
 * worker processes, every cluster's verify scheduled each minute for `minutes`, and 20 mutating
 * jobs queued on ten of the clusters meanwhile. On the single Redis the section starts a
 * redis-server of its own, so its memory figure is the bot's alone (the shared one has neighbours).
 */
export async function measureFleet(redis: BenchRedis, minutes: number): Promise<FleetFigures> {
  const own = redis.mode === 'single' ? await startOwnRedis() : undefined;
  try {
    const lab = await startBenchLab({
      redis,
      workers: 3,
      fleet: { count: CLUSTERS, verifyEvery: `${VERIFY_EVERY_MS / 60_000}m` },
      env: own ? { REDIS_URL: own.url } : {},
    });
    try {
      return { fleet: await runFleet(lab, minutes) };
    } finally {
      await lab.stop();
    }
  } finally {
    await own?.close();
  }
}

async function runFleet(lab: BenchLab, minutes: number): Promise<FleetFigures['fleet']> {
  const env = readEnv(lab.processEnv);
  const redis = connectRedis(env);
  try {
    await lab.warmUp();
    await firstScheduledRound(lab);
    const pids = lab.workers.map((worker) => worker.child.pid!);
    const rssStartMb = await meanRssMb(pids);
    const memoryBefore = await redisUsedMemory(env);

    const from = Date.now();
    const to = from + minutes * 60_000;
    const acks: number[] = [];
    const [commandJobIds] = await Promise.all([sendCommands(lab, from, to, acks), askStatus(lab, to, acks)]);
    await Promise.allSettled(commandJobIds.map((jobId) => lab.outcome(jobId, DRAIN_MS)));
    const keys = redisKeys(env.REDIS_PREFIX);
    const count = await lab.slack.waitFor(
      async () => {
        const counted = findLostJobs(await readQueueEvents(redis, keys), { from, to }, commandJobIds, {
          clusters: lab.fleet.map(({ cluster }) => cluster.name),
          everyMs: VERIFY_EVERY_MS,
        });
        return counted.lost.length === 0 || Date.now() > to + DRAIN_MS ? counted : undefined;
      },
      { timeoutMs: DRAIN_MS + 60_000, intervalMs: 1_000, description: 'the window’s jobs to end' },
    );
    const ended = count.jobs.length - count.lost.length;
    const memoryAfter = await redisUsedMemory(env);
    const rssEndMb = await meanRssMb(pids);

    const audit = (await createAuditLog(redis, keys, silentLogger()).recent(10_000)).reverse();
    const starts = audit.filter((entry) => entry.action === 'start').length;
    // Without start entries the overlap check would pass having looked at nothing.
    if (starts < commandJobIds.length)
      throw new Error(`the audit shows ${starts} job starts for ${commandJobIds.length} mutating jobs`);
    const verifies = scheduledVerifies(lab.logEntries(), from, to);
    return {
      clusters: CLUSTERS,
      minutes,
      jobs: count.jobs.length,
      scheduledVerifies: count.jobs.length - commandJobIds.length,
      commandJobs: commandJobIds.length,
      jobsLost: count.lost.length,
      jobsFailed: count.failed.length,
      verifiesNotPassed: verifies.filter((entry) => entry.outcome !== 'succeeded').length,
      overlaps: findOverlaps(audit).length,
      rateLimited: lab.slack.rateLimitedCount(),
      ackP99: round(percentile(acks, 99)),
      ackN: acks.length,
      rssStartMb,
      rssEndMb,
      redisBytesPerJob: Math.round((memoryAfter - memoryBefore) / ended),
    };
  } finally {
    redis.disconnect();
  }
}

/** Every cluster's first scheduled verify has run: each worker has met the fleet's APIs once. */
async function firstScheduledRound(lab: BenchLab): Promise<void> {
  await lab.slack.waitFor(
    () => {
      const seen = new Set(scheduledVerifies(lab.logEntries(), 0, Date.now()).map((entry) => entry.cluster));
      return lab.fleet.every(({ cluster }) => seen.has(cluster.name)) || undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500, description: 'a first scheduled verify of every cluster' },
  );
}

/** Every BURSTS-th of the window, `packages <node> --queue` twice on each of two fresh clusters, at once. */
async function sendCommands(lab: BenchLab, from: number, to: number, acks: number[]): Promise<string[]> {
  const jobIds: string[] = [];
  for (let burst = 0; burst < BURSTS; burst++) {
    await sleepUntil(from + ((to - from) * burst) / BURSTS);
    const clusters = [lab.fleet[2 * burst]!.cluster, lab.fleet[2 * burst + 1]!.cluster];
    const texts = clusters.flatMap((cluster) =>
      cluster.nodes.slice(0, 2).map((node) => `packages ${node.name} --queue`),
    );
    jobIds.push(
      ...(await Promise.all(
        texts.map(async (text) => {
          const response = await lab.command(text);
          acks.push(ackedIn(response, text));
          return lab.jobIdOf(response);
        }),
      )),
    );
  }
  return jobIds;
}

/** An operator's `status <cluster>` every few seconds, round the fleet, until the window ends. */
async function askStatus(lab: BenchLab, to: number, acks: number[]): Promise<void> {
  for (let turn = 0; Date.now() < to; turn++) {
    const text = `status ${lab.fleet[turn % lab.fleet.length]!.cluster.name}`;
    acks.push(ackedIn(await lab.command(text), text));
    await sleepUntil(Math.min(to, Date.now() + STATUS_EVERY_MS));
  }
}

function ackedIn(response: { status: number; body: string; latencyMs: number }, text: string): number {
  if (response.status !== 200)
    throw new Error(`"${text}" was acked HTTP ${response.status}: ${response.body}`);
  return response.latencyMs;
}

type VerifyLogEntry = LogEntry & { readonly cluster?: string };

function scheduledVerifies(log: readonly LogEntry[], from: number, to: number): VerifyLogEntry[] {
  return log.filter(
    (entry): entry is VerifyLogEntry => entry.msg === 'scheduled verify' && entry.at >= from && entry.at < to,
  );
}

async function meanRssMb(pids: readonly number[]): Promise<number> {
  const each = await Promise.all(pids.map((pid) => rssMb(pid, 'VmRSS')));
  return round(each.reduce((sum, mb) => sum + mb, 0) / each.length);
}

const silentLogger = () => createLogger({ level: 'silent', redact: createRedactor() });

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
