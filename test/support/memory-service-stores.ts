import { createMemoryApprovalBook } from './memory-approval-book.js';
import { createMemoryAuditTrail } from './memory-audit-trail.js';
import { createMemoryClaims } from './memory-claims.js';
import { createMemoryClusterLeases } from './memory-cluster-leases.js';
import { createMemoryClusterNotes } from './memory-cluster-notes.js';
import { createMemoryCommandRateLimit } from './memory-command-rate-limit.js';
import { createMemoryHomeWatchList } from './memory-home-watch-list.js';
import { createMemoryHostKeyPins } from './memory-host-key-pins.js';
import { createMemoryJobFeedReader } from './memory-job-feed-reader.js';
import { createMemoryJobRecords } from './memory-job-records.js';
import { createMemoryJobSubmitter } from './memory-job-submitter.js';
import { createMemoryThreadStore } from './memory-thread-store.js';

/**
 * Every store the service is built from, in memory: `ports` to hand it, and each store's own
 * handle for a test to arrange (a record ended, an approval pending, a verify noted) and inspect.
 */
export function createMemoryServiceStores(options: {
  now: () => number;
  perMinute: number;
  alertsChannel: string;
}) {
  const { now } = options;
  // One set, as in Redis one key space: a delivery the rate limit saw is one `firstDelivery` has seen.
  const deliveries = new Set<string>();
  const records = createMemoryJobRecords();
  const leases = createMemoryClusterLeases();
  const approvals = createMemoryApprovalBook();
  const audit = createMemoryAuditTrail();
  const feed = createMemoryJobFeedReader();
  const notes = createMemoryClusterNotes();
  const threads = createMemoryThreadStore(options.alertsChannel);
  const hostKeyPins = createMemoryHostKeyPins();
  const { rateLimit } = createMemoryCommandRateLimit(options.perMinute, deliveries, now);
  const queue = createMemoryJobSubmitter({ records, leases, audit: audit.trail, rateLimit, now });
  return {
    records,
    leases,
    approvals,
    audit,
    feed,
    notes,
    threads,
    hostKeyPins,
    queue,
    ports: {
      records: records.store,
      clusterLeases: leases.reader,
      approvals: approvals.book,
      audit: audit.trail,
      feed: feed.reader,
      threads: threads.store,
      claims: createMemoryClaims(deliveries, now).claims,
      homeWatchList: createMemoryHomeWatchList().list,
      clusterNotes: notes.notes,
      outboxBacklog: notes.outboxBacklog,
      hostKeyPins: hostKeyPins.pins,
      rateLimit,
      queue: queue.submitter,
    },
  };
}
