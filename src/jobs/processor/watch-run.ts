import { cancelledBy } from '../request-cancel.js';
import { type JobProcessorDeps, LEASE_MS } from './job-processor-deps.js';
import type { JobRun } from './open-run.js';

/**
 * While a job runs, a cancel (from Slack, the console or the job page) reaches it within a poll and
 * aborts the engine, and a mutating job's lease is renewed well before it lapses, so only a dead
 * worker loses it, or another start of the job that took it over (the run then loses it: see
 * openRun). A job cancelled before it started is told so at once. Returns the stop.
 */
export async function watchRun(
  deps: JobProcessorDeps,
  run: JobRun,
  controller: AbortController,
  cancelBy: string | null,
): Promise<() => void> {
  const { record, cluster } = run;
  const announceCancel = async (by: string) => {
    await run.thread.notice(`🛑 cancelled by <@${by}>`);
    controller.abort(new Error(`cancelled by ${by}`));
  };
  if (cancelBy) await announceCancel(cancelBy);
  // A poll that fails (Redis away, the connection closed under a stopping worker) is tried again at
  // the next tick; left unhandled, its rejection would end the process.
  const missed = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error, jobId: record.id }, `${what} failed; trying again`);
  const watchers = [
    setInterval(() => {
      cancelledBy(deps.redis, deps.keys, record.id)
        .then(async (by) => {
          if (by && !controller.signal.aborted) await announceCancel(by);
        })
        .catch(missed('cancel poll'));
    }, deps.cancelPollMs ?? 1_000),
    setInterval(
      () => {
        // A settled run released its lease: a renew now would take it again.
        if (!run.lease.held || run.lease.lost || run.finished) return;
        deps.clusterLeases
          .renew(cluster.name, run.lease.holder, LEASE_MS)
          .then((held) => held || run.lease.lose())
          .catch(missed('lease renewal'));
      },
      deps.leaseRenewMs ?? LEASE_MS / 3,
    ),
  ];
  return () => {
    for (const watcher of watchers) clearInterval(watcher);
  };
}
