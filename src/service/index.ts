// The service's edge: what Slack and the console may use, including the job layer's types they show.
export type { AccessRefusal, GroupMembers } from '../access/access-policy.js';
export type { AuditAction, AuditEntry } from '../jobs/audit-log.js';
export type { Admission } from '../jobs/command-rate-limit.js';
export type { JobRecord } from '../jobs/job-record.js';
export type { StoredApproval } from '../jobs/ports/approval-announcer.js';
export type { FeedEvent, FeedLine } from '../jobs/ports/job-feed.js';
export { isRightsRefusal, type RightsRefusal } from './audit-refusal.js';
export type {
  Actor,
  ApprovalClick,
  Backlog,
  ClusterBacklog,
  ClusterOverview,
  ClusterService,
  Decision,
  FluxSuspended,
  HomeAnswer,
  HomeCluster,
  HostKeyPinNote,
  LastVerify,
  OpenAlert,
  PendingApproval,
  Planned,
  ShowDecision,
  Submitted,
} from './cluster-service.js';
export { createClusterService } from './create-cluster-service.js';
export type { JobProgress, JobSummary } from './job-summary.js';
export type { JobLogChunk, JobPage } from './read-job-page.js';
export { isRefusal, type Refusal, type RefusalCode } from './refusal.js';
export type { ServiceDeps } from './service-deps.js';
