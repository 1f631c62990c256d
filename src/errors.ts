/**
 * Every failure the bot can explain carries a stable `code` and the underlying `cause`. Its message
 * is one plain sentence for operators (no markup, no secrets); the edge (Slack / console) escapes
 * it, frames it and decides by its code. Refusals before a job exists are not errors: they are
 * typed facts (src/service/refusal.ts), worded once for every edge (src/wording/describe-refusal.ts).
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'ENV_INVALID'
  | 'COMMAND_INVALID'
  | 'TARGET_UNKNOWN'
  | 'PRECONDITION_FAILED'
  | 'SSH_UNREACHABLE'
  | 'SSH_AUTH_FAILED'
  | 'SSH_HOST_KEY_MISMATCH'
  | 'SSH_HOST_KEY_UNKNOWN'
  | 'SSH_CONNECTION_LOST'
  | 'COMMAND_TIMEOUT'
  | 'COMMAND_FAILED'
  | 'PLAYBOOK_FAILED'
  | 'KUBE_UNREACHABLE'
  | 'KUBE_REQUEST_FAILED'
  | 'GATE_FAILED'
  | 'GATE_TIMEOUT'
  | 'CANCELLED'
  /** BullMQ did not take a command's job (its record was taken back): nothing was started. */
  | 'JOB_NOT_QUEUED'
  | 'INTERNAL';

export class ClusterBotError extends Error {
  readonly code: ErrorCode;
  /** Structured facts for the reporter (host, fingerprints, task, ...). Never secrets. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ClusterBotError';
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isClusterBotError(error: unknown, code?: ErrorCode): error is ClusterBotError {
  return error instanceof ClusterBotError && (code === undefined || error.code === code);
}
