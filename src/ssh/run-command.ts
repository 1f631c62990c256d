import type { Client } from 'ssh2';
import type { ExecRequest } from '../lifecycle/ports/remote-shell.js';
import { CommandRun, type RunContext, type RunOutcome } from './command-run.js';

export type { RunContext, RunOutcome } from './command-run.js';

/**
 * Runs one command line on a ready client. Output is split into lines and handed to onLine one at a
 * time; while a returned promise is pending both streams are paused, which (ssh2 withholding window
 * adjustments) stops the remote writer instead of buffering without bound. Ending early sends EOF,
 * which the process-group prelude (see wrap-in-process-group.ts) turns into the end of the remote command.
 */
export function runCommand(
  client: Client,
  commandLine: string,
  request: ExecRequest,
  context: RunContext,
): Promise<RunOutcome> {
  return new Promise((resolve, reject) =>
    new CommandRun(client, request, context, { resolve, reject }).start(commandLine),
  );
}
