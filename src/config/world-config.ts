import type { ClusterTimeouts, NodeRole } from './world-schema.js';

export interface NodeEntry {
  readonly name: string;
  readonly cluster: string;
  readonly address: string;
  readonly roles: readonly NodeRole[];
  readonly tofuResource?: string | undefined;
}

export interface SshCredentials {
  readonly user: string;
  readonly port: number;
  readonly privateKeyPath: string;
  readonly knownHostsPath: string;
}

export type NotifyApprovers = 'mention' | 'dm' | 'both';

export interface ClusterConfig {
  readonly name: string;
  /** Every mutating step is approved; the prod rules of the runbook apply. */
  readonly production: boolean;
  readonly kubeconfigPath: string;
  /** Who may run commands on it (users or user groups): its own list, or access.operators. */
  readonly operators: readonly string[];
  /** Where its commands are accepted: its own list, or slack.commandChannels ([] = any channel). */
  readonly commandChannels: readonly string[];
  readonly approvers: readonly string[];
  readonly requiredApprovals: number;
  readonly allowSelfApproval: boolean;
  /** Mention the approvers in the thread, message each user among them directly, or both (groups are always mentioned). */
  readonly notifyApprovers: NotifyApprovers;
  readonly approvalTimeoutMs: number;
  readonly verifyEveryMs?: number | undefined;
  /** How often the Cilium drift watch runs; undefined: never on a schedule. */
  readonly driftEveryMs?: number | undefined;
  readonly verifyAlertRepeatMs: number;
  /** The newest etcd snapshot on some server must be younger than this. */
  readonly snapshotMaxAgeMs: number;
  readonly extraVars: Readonly<Record<string, string>>;
  readonly nodeSsh: SshCredentials;
  /** The vault password file on the ops host its plays decrypt the vault with; undefined: none. */
  readonly vaultPasswordFile?: string | undefined;
  readonly homeExitIps: readonly string[];
  readonly timeouts: ClusterTimeouts;
  readonly nodes: readonly NodeEntry[];
}

export interface OpsConfig extends SshCredentials {
  readonly host: string;
  readonly repoPath: string;
  /** known_hosts of the playbooks' SSH on the ops host; undefined: the ops user's ~/.ssh/known_hosts. */
  readonly ansibleKnownHostsPath?: string | undefined;
}

/** The operators' world as the bot sees it: validated, defaults applied, ready to plan from. */
export interface WorldConfig {
  readonly slack: { readonly alertsChannel: string; readonly commandChannels: readonly string[] };
  readonly access: { readonly operators: readonly string[] };
  readonly ops: OpsConfig;
  readonly clusters: Readonly<Record<string, ClusterConfig>>;
}
