import type { GroupMembers } from '../../access/access-policy.js';
import type { JobTracing } from '../../tracing/job-tracing.js';
import type { AuditLog } from '../audit-log.js';
import type { ClusterLease } from '../cluster-lease.js';
import type { CommandBatch } from '../command-batch.js';
import type { JobRecords } from '../job-record.js';
import type { ApprovalAnnouncer } from '../ports/approval-announcer.js';
import type { JobReporterFactory } from '../ports/job-reporting.js';
import type { ScheduledVerifyDeps } from '../run-scheduled-verify.js';

/** What the processor needs beyond what a scheduled verify needs (world, Redis, Slack, SSH, Kubernetes, clock, logs). */
export interface JobProcessorDeps extends ScheduledVerifyDeps {
  readonly records: JobRecords;
  readonly clusterLeases: ClusterLease;
  readonly audit: AuditLog;
  /** The process's one batch, shared with the thread outbox so a step transition is one pipeline. */
  readonly batch: CommandBatch;
  readonly announcer: ApprovalAnnouncer;
  /** Shows one job to people (its Slack thread); built by the edge, so this layer knows no Slack. */
  readonly reporterFor: JobReporterFactory;
  /** Resolves user groups, to check the requester again when the job starts. */
  readonly members: GroupMembers;
  readonly dataDir: string;
  /** How long a finished job's Redis keys and log file are kept. */
  readonly retentionMs: number;
  /** The job logs under dataDir are pruned, oldest first, to stay within this total. */
  readonly logsMaxBytes: number;
  /** How often a running job checks whether someone cancelled it. */
  readonly cancelPollMs?: number;
  /** Spans per job run, step and remote command (OTLP when configured); none by default. */
  readonly tracing?: JobTracing;
  /** How often a running job renews its lease; default a third of LEASE_MS. */
  readonly leaseRenewMs?: number;
}

/** A running job's lease; renewed well within it, so only a dead worker lets it lapse. */
export const LEASE_MS = 60_000;
