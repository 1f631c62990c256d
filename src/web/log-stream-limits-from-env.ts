import type { Env } from '../config/read-env.js';
import type { LogStreamLimits } from './stream-job-log.js';

/** The job page's log stream caps, as the environment sets them (read-env.ts holds the defaults). */
export function logStreamLimitsFromEnv(
  env: Pick<
    Env,
    'JOB_PAGE_STREAMS' | 'JOB_PAGE_STREAMS_PER_JOB' | 'JOB_PAGE_BATCH_KB' | 'JOB_PAGE_STREAM_IDLE'
  >,
): LogStreamLimits {
  return {
    perProcess: env.JOB_PAGE_STREAMS,
    perJob: env.JOB_PAGE_STREAMS_PER_JOB,
    batchBytes: env.JOB_PAGE_BATCH_KB * 1_024,
    idleMs: env.JOB_PAGE_STREAM_IDLE,
  };
}
