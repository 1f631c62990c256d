/** What the streaming parser of ansible-playbook's default-callback output reports. */

export type HostResultStatus = 'ok' | 'changed' | 'failed' | 'unreachable' | 'skipping' | 'fatal-ignored';

export interface RecapCounts {
  readonly ok: number;
  readonly changed: number;
  readonly unreachable: number;
  readonly failed: number;
  readonly skipped: number;
  readonly rescued: number;
  readonly ignored: number;
}

export type Recap = Readonly<Record<string, RecapCounts>>;

export type AnsibleEvent =
  /** `index` counts plays from 1; a repeated banner of the same play (a `serial` batch) keeps it. */
  | { readonly type: 'play'; readonly index: number; readonly name: string; readonly batch: number }
  /** `taskIndex` counts task banners from 1 across the whole run. */
  | { readonly type: 'task'; readonly playIndex: number; readonly taskIndex: number; readonly name: string }
  | {
      readonly type: 'host-result';
      readonly status: HostResultStatus;
      readonly host: string;
      readonly task: string;
      readonly msg?: string;
      readonly item?: string;
      /** The `--diff` lines printed for this result (bounded). */
      readonly diff?: readonly string[];
    }
  | { readonly type: 'warning'; readonly text: string }
  /** `ERROR! ...` / `[ERROR]: ...`: ansible itself gave up (syntax, vault, interrupted). */
  | { readonly type: 'error'; readonly text: string }
  | { readonly type: 'recap'; readonly hosts: Recap };

export interface PlaybookFailure {
  readonly host: string;
  readonly task: string;
  readonly msg: string;
  readonly kind: 'failed' | 'unreachable';
  readonly item?: string;
}

export interface PlaybookOutcome {
  /** Exit 0 and no host failed or unreachable. */
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly recap: Recap | null;
  /** The last failures that made the run fail (rescued and ignored ones dropped), oldest first. */
  readonly failures: readonly PlaybookFailure[];
  readonly lastTask: string | null;
  /** The first warnings and errors ansible printed. */
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
  readonly lineCount: number;
}

/** Where a run is: enough to tell a person what is happening right now. */
export interface ProgressState {
  /** 0 before the first play. */
  readonly playIndex: number;
  readonly playName: string | null;
  /** 0 before the first task. */
  readonly taskIndex: number;
  readonly taskName: string | null;
  /** Plays in the run when known (from `--list-tasks`). */
  readonly playCount?: number;
}
