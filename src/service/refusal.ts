import type { AccessRefusal } from '../access/access-policy.js';
import type { JobSummary } from './job-summary.js';

/**
 * Why nothing was done, as facts: the edge (Slack, the console) chooses the words. Every operation
 * of the service and every verb answers either its result or one of these.
 */
export type Refusal =
  | AccessRefusal
  /** A read by someone who may use the bot but operates none of its clusters: nothing to show them. */
  | { readonly code: 'NO_CLUSTERS'; readonly user: string }
  | { readonly code: 'RATE_LIMITED'; readonly perMinute: number }
  /** A delivery already taken (Slack retries and replays carry the same key): nothing done, nothing to answer. */
  | { readonly code: 'REPEATED_DELIVERY' }
  /** The parser's reason, quoting what was typed; `suggestion` is the nearest valid spelling. */
  | { readonly code: 'COMMAND_INVALID'; readonly message: string; readonly suggestion?: string | undefined }
  | { readonly code: 'UNKNOWN_VERB'; readonly verb: string; readonly suggestion?: string | undefined }
  | { readonly code: 'USAGE'; readonly verb: 'status'; readonly clusters: readonly string[] }
  | { readonly code: 'USAGE'; readonly verb: 'audit'; readonly max: number }
  | { readonly code: 'USAGE'; readonly verb: 'cancel' | 'rerun' }
  /** The config cannot build the command's plan (an unknown target, a missing setting). */
  | { readonly code: 'PLAN_INVALID'; readonly message: string }
  | { readonly code: 'BUSY'; readonly cluster: string; readonly holder: JobSummary; readonly command: string }
  /** BullMQ did not take the command's job, and what was written for it was taken back. */
  | { readonly code: 'NOT_QUEUED'; readonly command: string }
  | { readonly code: 'NO_SUCH_JOB'; readonly number: string }
  | { readonly code: 'JOB_ENDED'; readonly number: number; readonly outcome: string }
  | { readonly code: 'NOT_CANCELLER'; readonly cluster: string; readonly number: number }
  | { readonly code: 'NO_SUCH_APPROVAL' }
  /** The approval rules refused a click; `reason` is theirs. */
  | { readonly code: 'CLICK_REFUSED'; readonly reason: string }
  /**
   * A Roll back Cilium button that does not belong to a failed Cilium rollout (or a forged one), or
   * whose rollback was queued already (`number`: that rollback job).
   */
  | {
      readonly code: 'ROLLBACK_NOT_OFFERED';
      readonly why: 'no-such-job' | 'not-a-rollout' | 'not-failed' | 'already-rolled-back';
      readonly number?: number | undefined;
    }
  /**
   * A re-run of a job that is not recorded (unknown, or expired after the retention), has not ended,
   * did not fail and was not cancelled (`outcome`), is a `plan` (it changes nothing: ask it again),
   * or was re-run already (`rerun`: that job's number, undefined while it is being queued).
   */
  | {
      readonly code: 'RERUN_REFUSED';
      readonly why: 'no-such-job' | 'not-ended' | 'not-failed' | 'plan-job' | 'already-rerun';
      readonly number?: number | string | undefined;
      readonly outcome?: string | undefined;
      readonly rerun?: number | undefined;
    };

export type RefusalCode = Refusal['code'];

export function isRefusal<T extends object>(result: T | Refusal): result is Refusal {
  return 'code' in result;
}
