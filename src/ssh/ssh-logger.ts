/** The part of a pino logger the SSH adapter uses. */
export interface SshLogger {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
}
