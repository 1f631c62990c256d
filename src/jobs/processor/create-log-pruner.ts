import { pruneJobLogs } from '../prune-job-logs.js';
import type { JobProcessorDeps } from './job-processor-deps.js';

/** Pruning lists the log folder: once a minute per worker is plenty. */
const PRUNE_EVERY_MS = 60_000;

/** Keeps the job logs under dataDir within their age and size, at most once a minute; never fails a job. */
export function createLogPruner(deps: JobProcessorDeps): () => Promise<void> {
  let prunedAt = Number.NEGATIVE_INFINITY;
  return async () => {
    if (deps.clock.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = deps.clock.now();
    const removed = await pruneJobLogs(deps.dataDir, {
      maxAgeMs: deps.retentionMs,
      maxBytes: deps.logsMaxBytes,
      now: deps.clock.now,
      isRunning: async (jobId) => {
        const record = await deps.records.get(jobId);
        return record !== undefined && record.outcome === undefined;
      },
    }).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'pruning job logs failed');
      return [];
    });
    if (removed.length > 0) deps.logger.info({ removed: removed.length }, 'old job logs pruned');
  };
}
