import type { Redis } from 'ioredis';
import type { WorldConfig } from '../config/world-config.js';
import type { ClusterLock } from '../jobs/cluster-lock.js';
import type { JobRecords } from '../jobs/job-record.js';
import type { RedisKeys } from '../jobs/redis-keys.js';
import type { createThreadStore } from '../jobs/thread-store.js';
import { describeJob, jobProgress, jobTitle } from './describe-job.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

export interface StatusDeps {
  readonly world: WorldConfig;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly records: JobRecords;
  readonly threads: ReturnType<typeof createThreadStore>;
  readonly lock: ClusterLock;
}

export interface LastVerify {
  readonly outcome: string;
  readonly at: number;
  /** 0 for a scheduled verify, which has no job number. */
  readonly jobNumber: number;
  readonly summary: string;
}

const RECENT = 10;

/** `/cluster status [cluster]`: lock holder, waiting jobs, unfinished jobs, last verify per cluster. */
export async function describeStatus(deps: StatusDeps, only?: string): Promise<string> {
  const clusters = Object.keys(deps.world.clusters).filter((name) => only === undefined || name === only);
  const recent = await recentRecords(deps, 200);
  const sections: string[] = [];
  for (const cluster of clusters) {
    const holder = await deps.lock.holder(cluster);
    const waiting = await deps.redis.lrange(deps.keys.waiting(cluster), 0, -1);
    const open = recent.filter((r) => r.command.cluster === cluster && !r.outcome);
    const lastRaw = await deps.redis.get(deps.keys.lastVerify(cluster));
    const last = lastRaw ? (JSON.parse(lastRaw) as LastVerify) : undefined;
    const lines = [`*${cluster}*`];
    lines.push(holder ? `• lock: ${await describeJob(holder, deps.records, deps.threads)}` : '• lock: free');
    if (waiting.length > 0)
      lines.push(`• queued behind it: ${waiting.map((id) => id.replace('job-', '#')).join(', ')}`);
    for (const record of open)
      lines.push(`• ${jobTitle(record)}: ${await jobProgress(record, deps.threads)}`);
    lines.push(
      last
        ? `• last verify: ${last.outcome} at ${new Date(last.at).toISOString().slice(0, 16).replace('T', ' ')} UTC (${last.jobNumber ? `job #${last.jobNumber}` : 'scheduled'}): ${escapeMrkdwn(last.summary)}`
        : '• last verify: none yet',
    );
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n') || `unknown cluster ${only}`;
}

/** `/cluster jobs`: the recent jobs with outcome and duration. */
export async function describeRecentJobs(deps: StatusDeps): Promise<string> {
  const recent = await recentRecords(deps, RECENT);
  if (recent.length === 0) return 'No jobs yet.';
  const lines = await Promise.all(
    recent.map(async (record) => `• ${jobTitle(record)}: ${await jobProgress(record, deps.threads)}`),
  );
  return `Recent jobs:\n${lines.join('\n')}`;
}

async function recentRecords(deps: StatusDeps, count: number) {
  const ids = await deps.redis.lrange(deps.keys.recentJobs, 0, count - 1);
  const records = await Promise.all(ids.map((id) => deps.records.get(id)));
  return records.filter((record) => record !== undefined);
}
