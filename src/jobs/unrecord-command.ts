import type { Redis } from 'ioredis';
import type { AuditLog } from './audit-log.js';
import { RELEASE_LEASE } from './cluster-lease.js';
import type { JobRecord } from './job-record.js';
import type { RedisKeys } from './redis-keys.js';
import { queueRetireJob } from './retire-job.js';

/** The outcome summary of a command whose job BullMQ never took. */
export const NOT_QUEUED_SUMMARY = 'the job could not be queued; nothing was started';

/**
 * Takes back, in one transaction, what RECORD_COMMAND wrote for a job BullMQ never received: the
 * lease (only while this job holds it) or its place in line, so nobody is BUSY behind a job that
 * never runs; the record ends failed and gets the retention; an outcome entry closes its audit
 * entry; the delivery's dedup key goes, so a retry of the same delivery is taken again.
 */
export async function unrecordCommand(
  redis: Redis,
  keys: RedisKeys,
  deps: { readonly audit: Pick<AuditLog, 'queue'>; readonly retentionMs: number },
  record: JobRecord,
  deliveryKey: string | undefined,
  now: number,
): Promise<void> {
  const { cluster } = record.command;
  const multi = redis
    .multi()
    .eval(RELEASE_LEASE, 1, keys.lease(cluster), record.id)
    .lrem(keys.waiting(cluster), 0, record.id)
    .set(keys.job(record.id), JSON.stringify({ ...record, outcome: 'failed', finishedAt: now }));
  queueRetireJob(multi, keys, record.id, deps.retentionMs);
  deps.audit.queue(multi, {
    at: now,
    who: 'cluster-bot',
    action: 'outcome',
    what: `failed: ${NOT_QUEUED_SUMMARY}`,
    cluster,
    jobId: record.id,
  });
  if (deliveryKey !== undefined) multi.del(keys.dedup(deliveryKey));
  const failed = ((await multi.exec()) ?? []).find(([error]) => error);
  if (failed) throw failed[0];
}
