import type { ClusterConfig, WorldConfig } from '../../config/world-config.js';
import type { ApprovalBinding, CheckPreview } from '../ports/approval-desk.js';
import type { Clock } from '../ports/clock.js';
import type { HostKeyPins, KeptHostKey } from '../ports/host-key-pins.js';
import type { KubeGateway } from '../ports/kube-gateway.js';
import type { KubeconfigKeeper } from '../ports/kubeconfig-keeper.js';
import type { RemoteShell } from '../ports/remote-shell.js';
import type { AgentProgress } from '../ports/reporter.js';
import type { RepoFileCache } from '../repo/repo-file-cache.js';

/** Job-scoped facts shared between steps and kept across resumes (e.g. a rebuilt node's pinned host key). */
export interface JobFacts {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): Promise<void>;
}

/** How many lines of a step's output were shown, kept across resumes (one small record per step). */
export interface ShownLines {
  read(): Promise<number>;
  write(lines: number): Promise<void>;
}

/** Everything a step may touch: the outside world only through these. */
export interface StepContext {
  readonly jobId: string;
  /** The job's folder tag (StepContextSources): with its id, it names its detached folders on hosts. */
  readonly folderTag?: string | undefined;
  /** When the job was recorded (StepContextSources). */
  readonly recordedAt?: number | undefined;
  readonly stepId: string;
  /** The step was running when its worker stopped: this run resumes it (a detached command is followed again). */
  readonly interrupted: boolean;
  readonly shown: ShownLines;
  readonly world: WorldConfig;
  readonly cluster: ClusterConfig;
  readonly shell: RemoteShell;
  readonly kube: KubeGateway;
  readonly kubeconfigs: KubeconfigKeeper;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly facts: JobFacts;
  /** The host keys the bot keeps for rebuilt nodes, as they stood when this run began (by node name). */
  readonly keptHostKeys: Readonly<Record<string, KeptHostKey>>;
  readonly hostKeyPins: HostKeyPins;
  /** The infra repo's files this run has read, each once per commit (read-repo-text.ts). */
  readonly repoFiles: RepoFileCache;
  /** Who approved this step, once it runs after an approval (empty otherwise). */
  readonly approvedBy: readonly string[];
  /** A line for the thread; a rollout also says which agent it is about, for the job page. */
  progress(text: string, agent?: AgentProgress): Promise<void>;
  output(line: string): void | Promise<void>;
  note(text: string): Promise<void>;
  gateFailed(gate: string, observed: string): Promise<void>;
}

export interface StepResult {
  readonly status: 'succeeded' | 'skipped';
  readonly summary: string;
}

/** A disruptive step stops for approval first; the binding says exactly what the approval covers. */
export interface ApprovalPolicy {
  /** Why the step is disruptive, shown in the approval request. */
  readonly reason: string;
  readonly warning?: string | undefined;
  /** How the plan marks it: "⚠" or a condition such as "⚠ first run". */
  readonly mark: string;
  /**
   * Distinct approvers this step needs at least, whatever the cluster's usual count (a restore on
   * production: two). Absent: the cluster's count.
   */
  readonly minimumApprovals?: number | undefined;
  /**
   * What the approver must compare with something outside the bot before approving, in words (a
   * new host key's fingerprint with the node's console): such a request is decided where it is read whole.
   */
  readonly compare?: string | undefined;
  /** Whether approval is needed this time (e.g. only when the cluster is not formed yet). */
  required(ctx: StepContext): Promise<boolean>;
  bind(ctx: StepContext): Promise<ApprovalBinding>;
  /**
   * What its fingerprint binds besides the commit and command line, in words, for the reason a void
   * gives when only that moved (a playbook's: Ansible on the ops host).
   */
  readonly alsoBinds?: string | undefined;
  /**
   * What the binding would be now (commit + exact command line), recomputed right before the step
   * runs: any difference voids the approval. Absent when the step is not bound to the repo.
   */
  current?(ctx: StepContext): Promise<BindingIdentity>;
  /** Removes what `bind` left on the ops host, once the approval is rejected or expires. */
  release?(ctx: StepContext): Promise<void>;
}

/** The part of a binding that says what would run: an approval covers exactly this fingerprint. */
export type BindingIdentity = Pick<ApprovalBinding, 'commit' | 'commandLine' | 'fingerprint'>;

export interface Step {
  readonly id: string;
  readonly title: string;
  readonly target: string;
  /** The exact command line, for `plan` and the approval request; absent for API-only steps. */
  readonly commandLine?: string | undefined;
  readonly approval?: ApprovalPolicy | undefined;
  /**
   * The step fetches the ops host's kubeconfig itself (the cluster kubeconfig step): its ctx.kube is
   * the cluster's gateway as is, without the engine's fallback to that kubeconfig.
   */
  readonly fetchesKubeconfig?: boolean | undefined;
  /**
   * Its remote command runs detached and outlives the worker: interrupted while running, the step is
   * resumed (following the command) under the approval it ran with, never run again.
   */
  readonly detached?: boolean | undefined;
  /**
   * A re-run may skip it as "done in #N" when the failed job finished it at the same commit and
   * command line. Opt-in, set by a plan only for an idempotent playbook that re-running is merely
   * slow for (`up`'s and `packages`' baseline, k3s, kube-vip, …): never for a step whose effect
   * depends on what happened since (a rebuild, a snapshot, a restore) or on a step before it in the
   * same job (a Flux suspension).
   */
  readonly carryOver?: boolean | undefined;
  run(ctx: StepContext): Promise<StepResult>;
  /**
   * What would refuse this step, read without changing anything (preconditions, --list-hosts,
   * --syntax-check, a dirty checkout): `plan` runs it for every step. None is fine.
   */
  check?(ctx: StepContext): Promise<readonly string[]>;
}

export type { CheckPreview };
