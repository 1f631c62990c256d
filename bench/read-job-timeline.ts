import type { Redis } from 'ioredis';
import { redisKeys } from '../src/jobs/redis-keys.js';
import type { BenchLab } from './bench-lab.js';
import type { JobTimeline, RemoteCommandTiming, TimedEvent } from './break-down-job.js';
import type { UpDevRun } from './run-up-dev.js';

/**
 * A finished job's timeline: its lifecycle events from the job page's feed in Redis, the remote
 * commands the worker logged (it must run at LOG_LEVEL=debug) and the Slack calls, all within the
 * job's window, so the lab must run one job at a time.
 */
export async function readJobTimeline(
  lab: BenchLab,
  run: UpDevRun,
  redis: Redis,
  prefix: string,
): Promise<JobTimeline> {
  const within = (at: number) => at >= run.sentAt && at <= run.endedAt;
  const commands = lab
    .logEntries()
    .filter((entry) => entry.msg === 'remote command ended' && within(entry.at))
    .map(
      (entry): RemoteCommandTiming => ({
        endedAt: entry.at,
        durationMs: entry.durationMs!,
        connectMs: entry.connectMs!,
        label: entry.label!,
        program: entry.program!,
        options: entry.options ?? [],
      }),
    );
  const feed = await redis.xrange(redisKeys(prefix).feedEvents(run.jobId), '-', '+');
  const events = feed.map(([, fields]) => JSON.parse(fields[1]!) as TimedEvent);
  return {
    sentAt: run.sentAt,
    endedAt: run.endedAt,
    commands,
    events,
    slackCallsAt: lab.slack.calls.map((call) => call.at).filter(within),
  };
}
