import { loadJobFacts } from '../../lifecycle/engine/job-facts.js';
import { GATES_READ_FACT, type GatesRead } from '../../lifecycle/gates/verify-gates-step.js';
import { queueRetireJob } from '../retire-job.js';
import { fluxSuspensionAfter } from './flux-suspension-after.js';
import type { JobProcessorDeps } from './job-processor-deps.js';
import type { JobRun } from './open-run.js';

/**
 * A job has ended once the engine says so. Everything that records the ending (its approvals
 * voided, the record's outcome, the cluster's last verify, the lease, the retention of its keys,
 * the audit entry) lands in ONE transaction: a reader sees all of it or none, and it costs one round
 * trip. It lands before the (possibly rate-limited) final Slack report, so nobody sees "cancelled"
 * and then "busy".
 */
export async function settleJob(
  deps: JobProcessorDeps,
  run: JobRun,
  outcome: string,
  summary: string,
): Promise<void> {
  run.finished = true;
  const { record, cluster } = run;
  const now = deps.clock.now();
  const facts = run.record.command.verb === 'verify' ? undefined : await loadJobFacts(run.checkpoints);
  const fluxSuspended = fluxSuspensionAfter(facts);
  const gatesRead = facts?.get<GatesRead>(GATES_READ_FACT);
  const multi = deps.redis.multi();
  // Queued first: the function it returns reads this command's result.
  const approvalsClosed = await run.approvals.queueClosePending(multi, `job ${outcome}`);
  deps.records.queueRewrite(multi, { ...record, outcome, finishedAt: now });
  if (record.command.verb === 'verify') {
    multi.set(
      deps.keys.lastVerify(cluster.name),
      JSON.stringify({ outcome, at: now, jobNumber: record.number, summary }),
    );
  } else if (gatesRead) {
    // A bring-up, rollout or rebuild that read the gates verified the cluster as much as `verify` does.
    const gatesOutcome = gatesRead.passed ? 'succeeded' : 'failed';
    multi.set(
      deps.keys.lastVerify(cluster.name),
      JSON.stringify({
        outcome: gatesOutcome,
        at: now,
        jobNumber: record.number,
        summary: gatesRead.summary,
      }),
    );
  }
  // Whether Flux is out of Cilium's way after this job: kept for status, the App Home and the reminder.
  if (fluxSuspended.suspended === true) {
    multi.set(
      deps.keys.fluxSuspended(cluster.name),
      JSON.stringify({
        jobNumber: record.number,
        jobId: record.id,
        at: now,
        outcome,
        ...(fluxSuspended.reason !== undefined && { reason: fluxSuspended.reason }),
      }),
    );
  } else if (fluxSuspended.suspended === false) multi.del(deps.keys.fluxSuspended(cluster.name));
  if (run.mutating) deps.clusterLeases.queueRelease(multi, cluster.name, run.lease.holder);
  queueRetireJob(multi, deps.keys, record.id, deps.retentionMs);
  deps.audit.queue(multi, {
    at: now,
    who: 'cluster-bot',
    action: 'outcome',
    what: `${outcome}: ${summary}`,
    cluster: cluster.name,
    jobId: record.id,
  });
  const results = (await multi.exec()) ?? [];
  const failed = results.find(([error]) => error);
  if (failed) throw failed[0];
  await approvalsClosed(results[0]?.[1]);
}
