import type { AccessRefusal } from '../access/access-policy.js';
import type { AuditEntry } from '../jobs/audit-log.js';
import type { Admission } from '../jobs/command-rate-limit.js';
import type { JobRef } from '../jobs/job-record.js';
import type { StoredApproval } from '../jobs/ports/approval-announcer.js';
import type { PlannedCommand } from '../lifecycle/command/lifecycle-command.js';
import type { RightsRefusal } from './audit-refusal.js';
import type { JobSummary } from './job-summary.js';
import type { JobLogChunk, JobPage } from './read-job-page.js';
import type { Refusal } from './refusal.js';

/** Who asks, and from where: every operation is checked against both. */
export interface Actor {
  readonly userId: string;
  readonly channelId: string;
}

/** A cluster's last verify, as the worker (or the scheduled verify) stored it. */
export interface LastVerify {
  readonly outcome: string;
  readonly at: number;
  /** 0 for a scheduled verify, which has no job number. */
  readonly jobNumber: number;
  readonly summary: string;
}

export interface ClusterOverview {
  readonly cluster: string;
  /** The job holding the cluster's lease, if any. */
  readonly holder?: JobSummary | undefined;
  /** Job ids waiting for the lease (`--queue`), first in line first. */
  readonly waiting: readonly string[];
  /** Jobs on the cluster that have not ended, newest first. */
  readonly open: readonly JobSummary[];
  readonly lastVerify?: LastVerify | undefined;
  /** Flux's cilium HelmRelease, left suspended by a failed job until someone resumes it (`cilium <cluster> --resume-flux`). */
  readonly fluxSuspended?: FluxSuspended | undefined;
  /** Rebuilt nodes the bot reaches through its own pin, whose key the mounted known_hosts still needs. */
  readonly hostKeyPins?: readonly HostKeyPinNote[] | undefined;
}

/** A node's host key kept by the bot after a rebuild, and the known_hosts line the operators add. */
export interface HostKeyPinNote {
  readonly node: string;
  readonly fingerprint: string;
  readonly jobId: string;
  readonly approvedBy: readonly string[];
  readonly knownHostsLine: string;
}

/** Which job left Flux suspended, when it ended, and how. */
export interface FluxSuspended {
  readonly jobNumber: number;
  readonly jobId: string;
  readonly at: number;
  readonly outcome: string;
  /** Why a job that went well left it suspended (a rollback: git still holds what failed). */
  readonly reason?: string | undefined;
}

export interface PendingApproval {
  readonly jobId: string;
  readonly stepId: string;
  readonly approvalId: string;
  readonly stepTitle: string;
  readonly approvals: readonly string[];
  /** Distinct approvals it needs: the step's own count where it asks more than the cluster's (a restore). */
  readonly required: number;
  /** Whether the person asking may approve it: one of the cluster's approvers, and not its requester where self-approval is off. */
  readonly mayApprove: boolean;
  /** Whether they may reject it: any of the cluster's approvers, its requester included. */
  readonly mayReject: boolean;
  /** What an approval of it covers, as its request says (the commit cut to 12 characters). */
  readonly runs: {
    readonly commandLine: string;
    readonly targets: string;
    readonly commit?: string | undefined;
  };
  /** Why it is approved only in its thread, where it is read whole (a warning, a host key to compare); undefined if not. */
  readonly decideInThread?: string | undefined;
  /** Its message with the buttons in the job's thread, once posted. */
  readonly message?: { readonly channel: string; readonly ts: string } | undefined;
}

/** A gate the scheduled verify found failing and alerted on, until it passes again. */
export interface OpenAlert {
  readonly gate: string;
  readonly observed: string;
  readonly alertedAt: number;
}

/** One cluster on the App Home: its overview, and what only the Home shows. */
export interface HomeCluster extends ClusterOverview {
  /** The approvals waiting on its jobs, saying which the actor may decide. */
  readonly approvals: readonly PendingApproval[];
  /** The jobs in `waiting`, first in line first. */
  readonly queued: readonly JobSummary[];
  readonly alerts: readonly OpenAlert[];
  /** Who may approve its disruptive steps (users and user groups), and how many must. */
  readonly approvers: readonly string[];
  readonly requiredApprovals: number;
}

/** One cluster's part of the backlog: open jobs, the age of the oldest in each place, pending approvals. */
export interface ClusterBacklog {
  readonly cluster: string;
  readonly openJobs: number;
  /** Since its request, of the oldest open job running a step, waiting for an approval, or not started (0: none). */
  readonly oldestOpenMs: { readonly running: number; readonly waiting: number; readonly queued: number };
  readonly pendingApprovals: number;
  /** Until the soonest of them expires; undefined when none waits. */
  readonly soonestApprovalExpiresInMs?: number | undefined;
  readonly lastVerify?: LastVerify | undefined;
  /** The scheduled verify's period (`verifyEvery`); undefined when the cluster has none. */
  readonly verifyEveryMs?: number | undefined;
}

/** What may be piling up, for the metrics a team alerts on (deploy/monitoring). */
export interface Backlog {
  readonly clusters: readonly ClusterBacklog[];
  /** The threads' outboxes: jobs with something still to send to Slack, and how many operations in all. */
  readonly outbox: { readonly jobs: number; readonly operations: number };
}

/** The App Home of one person, or why they may not see it. */
export type HomeAnswer = { readonly kind: 'home'; readonly clusters: readonly HomeCluster[] } | Refusal;

export type Submitted = {
  readonly kind: 'queued';
  /** The job's id and page nonce, for links to its page. */
  readonly jobId: string;
  readonly pageNonce?: string | undefined;
  readonly number: number;
  readonly cluster: string;
  /** The command in words, as the thread and the audit name it. */
  readonly command: string;
  /** 0 when it runs now; else its place in the cluster's line. */
  readonly position: number;
};

export type Planned = { readonly kind: 'planned'; readonly steps: string; readonly number: number };

export type ApprovalClick = {
  readonly decision: 'approve' | 'reject';
  /** The button's value: an approval id, or whatever a forged request put there. */
  readonly value: string;
} & (
  | {
      /** The message the button was on: it must be the approval's own. */
      readonly messageTs: string;
    }
  | {
      /** The button was on the clicker's App Home, which the bot published for them alone. */
      readonly onHome: true;
    }
);

export type Decision =
  | { readonly kind: 'already-counted'; readonly missing: number }
  | {
      readonly kind: 'counted';
      readonly userId: string;
      readonly step: string;
      readonly count: number;
      readonly required: number;
      readonly missing: number;
      readonly thread: { readonly channel: string; readonly threadTs?: string | undefined };
    }
  | {
      readonly kind: 'decided';
      readonly verdict: 'approved' | 'rejected';
      /** The approval after the decision; absent only if it vanished meanwhile. */
      readonly stored?: StoredApproval | undefined;
      readonly at: number;
      /** The job's thread: its approval message (`stored.messageTs`) is in this channel, wherever the click was. */
      readonly thread: { readonly channel: string; readonly threadTs?: string | undefined };
    };

/** Shows a counted or decided click before the job is woken, so its thread reads in order. */
export type ShowDecision = (decision: Exclude<Decision, { kind: 'already-counted' }>) => Promise<void>;

/**
 * What Slack, the console and (later) the job page may do: each operation checks the actor's
 * rights, audits what it did or refused, and answers typed data, never words.
 */
export interface ClusterService {
  /**
   * Takes one command in (one round trip): a repeated delivery is refused (REPEATED_DELIVERY), and
   * so is one beyond the sender's per-minute limit. `submit` and `plan` do it in the job's own write.
   */
  admitCommand(admission: Admission): Promise<Refusal | undefined>;
  /** True the first time a delivery key is seen (Slack retries and replays carry the same one). */
  firstDelivery(key: string): Promise<boolean>;
  /** Whether the actor may use the bot here at all (any cluster), or for one cluster. */
  admit(actor: Actor, cluster?: string): Promise<AccessRefusal | undefined>;
  /**
   * `admission`: the command not admitted yet, admitted in the same write as its job, or on its own
   * when the command is refused before it (access, plan): every refusal is counted and deduplicated.
   * NOT_QUEUED: BullMQ did not take the job, and nothing of it is left. `rerunOf`: the failed job
   * this one re-runs (`rerun` checked it).
   */
  submit(
    actor: Actor,
    command: PlannedCommand,
    queueIfBusy: boolean,
    admission?: Admission,
    rerunOf?: JobRef,
  ): Promise<Submitted | Refusal>;
  /** The plan's steps from the config, and a read-only job checking them against the repo and cluster. */
  plan(actor: Actor, command: PlannedCommand, admission?: Admission): Promise<Planned | Refusal>;
  cancel(
    actor: Actor,
    jobNumber: string,
  ): Promise<{ readonly kind: 'cancelling'; readonly number: number } | Refusal>;
  status(
    actor: Actor,
    cluster?: string,
  ): Promise<{ readonly kind: 'status'; readonly clusters: readonly ClusterOverview[] } | Refusal>;
  jobs(actor: Actor): Promise<{ readonly kind: 'jobs'; readonly jobs: readonly JobSummary[] } | Refusal>;
  audit(
    actor: Actor,
    count: number,
  ): Promise<{ readonly kind: 'audit'; readonly entries: readonly AuditEntry[] } | Refusal>;
  decide(actor: Actor, click: ApprovalClick, show: ShowDecision): Promise<Decision | Refusal>;
  /**
   * A job's page data. No actor: whoever holds the job's signed link may read it (the edge checks
   * the link before asking); undefined when the job is not (or no longer) recorded.
   */
  jobPage(jobId: string): Promise<JobPage | undefined>;
  /** Up to `count` lines of a job's log after the stream id `after` ('0': from the start). */
  jobLog(jobId: string, after: string, count: number): Promise<JobLogChunk | undefined>;
  /** Every cluster for the App Home and the console's `home`: lease, approvals, line, last verify, alerts. */
  home(actor: Actor): Promise<HomeAnswer>;
  /** `home` for several people at once (the Home refresh), reading what they share once; in their order. */
  homes(actors: readonly Actor[]): Promise<readonly HomeAnswer[]>;
  /** Remembers that a person opened the App Home now, so it is refreshed for them for a while. */
  watchHome(userId: string): Promise<void>;
  /** Who opened the App Home within the last `withinMs`. */
  homeWatchers(withinMs: number): Promise<readonly string[]>;
  /**
   * Records `hash` as what the person's Home shows; false when it already showed exactly that (so
   * nothing needs publishing). Atomic: of several bot processes, one publishes each change.
   */
  markHomeShown(userId: string, hash: string): Promise<boolean>;
  /**
   * The Roll back Cilium button under a failed rollout (its value, the job id): `cilium <cluster>
   * --rollback`, rights as for `cilium`, counted against the clicker's rate limit like a command;
   * every refusal but the rate limit's is audited.
   */
  rollBackCilium(actor: Actor, jobId: string): Promise<Submitted | Refusal>;
  /**
   * `rerun <job>` (its number) and the Re-run button (its id): the failed or cancelled job's
   * command again, as a re-run of it, once per job; rights as for the command.
   */
  rerun(
    actor: Actor,
    job: { readonly id: string } | { readonly number: string },
    admission?: Admission,
  ): Promise<Submitted | Refusal>;
  /**
   * Records a command refused for want of rights (who, what, when, cluster). Only for a command
   * already admitted (counted against the rate limit), so refusals cannot flood the trail.
   */
  auditRefusal(actor: Actor, command: string, refusal: RightsRefusal): Promise<void>;
  /** No actor: for /metrics, on the ops port, which carries no job data beyond counts and ages. */
  backlog(): Promise<Backlog>;
}
