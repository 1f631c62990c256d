import type { Redis } from 'ioredis';
import type { GroupMembers } from '../access/access-policy.js';
import type { WorldConfig } from '../config/world-config.js';
import type { AuditLog } from '../jobs/audit-log.js';
import type { ClusterLease } from '../jobs/cluster-lease.js';
import type { CommandRateLimit } from '../jobs/command-rate-limit.js';
import type { JobQueue } from '../jobs/create-job-queue.js';
import type { JobRecords } from '../jobs/job-record.js';
import type { ThreadStore } from '../jobs/ports/job-thread.js';
import type { JobFeedReader } from '../jobs/read-job-feed.js';
import type { RedisKeys } from '../jobs/redis-keys.js';
import type { Clock } from '../lifecycle/ports/clock.js';
import type { Metrics } from '../metrics/create-metrics.js';

/** What the service is built from: the job layer's stores, the queue, and who is who. */
export interface ServiceDeps {
  readonly world: WorldConfig;
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly records: JobRecords;
  readonly threads: ThreadStore;
  /** The job page's log and events, as the workers wrote them. */
  readonly feed: JobFeedReader;
  readonly clusterLeases: ClusterLease;
  readonly queue: Pick<JobQueue, 'enqueue' | 'promote'>;
  readonly audit: AuditLog;
  readonly members: GroupMembers;
  readonly rateLimit: CommandRateLimit;
  readonly metrics: Pick<Metrics, 'approvalWait'>;
  /** Time: what records and audits say, and how long a click waits for its approval's message. */
  readonly clock: Clock;
}
