import type { EnqueueResult } from '../../src/jobs/create-job-queue.js';
import type { JobRecord } from '../../src/jobs/job-record.js';
import { newJobRecord } from '../../src/jobs/new-job-record.js';
import { jobIdOf } from '../../src/jobs/ports/job-id.js';
import { describeCommand } from '../../src/lifecycle/command/lifecycle-command.js';
import { isMutating } from '../../src/lifecycle/verbs/lifecycle-verbs.js';
import type { AuditTrail } from '../../src/service/ports/audit-trail.js';
import type { JobSubmitter } from '../../src/service/ports/job-submitter.js';
import type { createMemoryClusterLeases } from './memory-cluster-leases.js';
import type { createMemoryCommandRateLimit } from './memory-command-rate-limit.js';
import type { createMemoryJobRecords } from './memory-job-records.js';

/**
 * The queue in memory, doing what the Redis script does for a command (record-command.ts): its
 * admission, then a mutating command's lease, or its place in line, or a BUSY refusal naming the
 * holder (audited, no number taken); its number, record and audit entry. No worker takes the jobs:
 * they stay queued, and `promoted` lists the jobs woken.
 */
export function createMemoryJobSubmitter(deps: {
  readonly records: ReturnType<typeof createMemoryJobRecords>;
  readonly leases: ReturnType<typeof createMemoryClusterLeases>;
  readonly audit: AuditTrail;
  readonly rateLimit: ReturnType<typeof createMemoryCommandRateLimit>['rateLimit'];
  readonly now: () => number;
}) {
  let lastNumber = 0;
  const promoted: string[] = [];
  const submitter: JobSubmitter = {
    async enqueue(request): Promise<EnqueueResult> {
      const { command, requestedBy, rerunOf } = request;
      if (request.admission) {
        const verdict = await deps.rateLimit.admit(request.admission);
        if (verdict !== 'admitted') return { kind: verdict };
      }
      const at = deps.now();
      const what = `${describeCommand(command)}${rerunOf ? ` (re-run of #${rerunOf.number})` : ''}`;
      const entry = { at, who: requestedBy, cluster: command.cluster };
      const holder = isMutating(command) ? await deps.leases.reader.holder(command.cluster) : null;
      if (holder !== null && !request.queueIfBusy) {
        await deps.audit.record({ ...entry, action: 'refused', what: `${what}: busy` });
        return { kind: 'busy', holderJobId: holder, holder: await deps.records.store.get(holder) };
      }
      const number = ++lastNumber;
      const id = jobIdOf(number);
      let position = 0;
      if (holder !== null) position = deps.leases.wait(command.cluster, id);
      else if (isMutating(command)) deps.leases.hold(command.cluster, id);
      const record: JobRecord = { id, number, ...newJobRecord(request, at) };
      deps.records.add(record);
      await deps.audit.record({ ...entry, action: 'command', what, jobId: id });
      return { kind: 'queued', record, position };
    },
    async promote(jobId) {
      promoted.push(jobId);
    },
  };
  return { submitter, promoted };
}
