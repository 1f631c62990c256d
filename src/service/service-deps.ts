import type { GroupMembers } from '../access/access-policy.js';
import type { WorldConfig } from '../config/world-config.js';
import type { CommandRateLimit } from '../jobs/command-rate-limit.js';
import type { ThreadStore } from '../jobs/ports/job-thread.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { HostKeyPins } from '../lifecycle/ports/host-key-pins.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { ApprovalBook } from './ports/approval-book.js';
import type { AuditTrail } from './ports/audit-trail.js';
import type { Claims } from './ports/claims.js';
import type { ClusterLeaseReader } from './ports/cluster-leases.js';
import type { ClusterNotes } from './ports/cluster-notes.js';
import type { HomeWatchList } from './ports/home-watch-list.js';
import type { JobFeedReader } from './ports/job-feed-reader.js';
import type { JobRecordStore } from './ports/job-records.js';
import type { JobSubmitter } from './ports/job-submitter.js';
import type { OutboxBacklog } from './ports/outbox-backlog.js';

/**
 * What the service is built from: the job layer's stores, each behind a port of its own (kept in
 * Redis by src/jobs, in memory by the unit tests), the queue, and who is who.
 */
export interface ServiceDeps {
  readonly world: WorldConfig;
  readonly records: JobRecordStore;
  readonly threads: ThreadStore;
  /** The job page's log and events, as the workers wrote them. */
  readonly feed: JobFeedReader;
  readonly clusterLeases: ClusterLeaseReader;
  readonly approvals: ApprovalBook;
  readonly claims: Claims;
  readonly homeWatchList: HomeWatchList;
  readonly clusterNotes: ClusterNotes;
  readonly hostKeyPins: Pick<HostKeyPins, 'read'>;
  readonly outboxBacklog: OutboxBacklog;
  readonly queue: JobSubmitter;
  readonly audit: AuditTrail;
  readonly members: GroupMembers;
  readonly rateLimit: Pick<CommandRateLimit, 'admit' | 'perMinute'>;
  readonly metrics: Pick<Metrics, 'approvalWait'>;
  /** Time: what records and audits say, and how long a click waits for its approval's message. */
  readonly clock: Clock;
}
