/**
 * The process log, for what the operator running the bot must know and a job's thread need not say
 * (a host's folders left unpruned). The job layer hands the job's logger, which binds the job's id.
 */
export interface OperatorLog {
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
}
