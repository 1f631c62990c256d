import type { ExecRequest, ExecResult, RemoteShell, SshTarget } from '../../lifecycle/ports/remote-shell.js';
import { quoteArgv } from '../../lifecycle/quote-argv.js';
import type { RunTrace } from '../../tracing/job-tracing.js';

/** Longest command line a span carries: a playbook's argv fits; a script passed inline is cut. */
const MAX_COMMAND_LINE = 500;

/**
 * A run's shell whose remote commands (run or followed detached) are spans under the step running
 * them. The command line is redacted before it leaves, like everything the bot posts or logs.
 */
export function traceRemoteShell(
  shell: RemoteShell,
  run: RunTrace,
  redact: (text: string) => string,
): RemoteShell {
  const traced = async <R extends ExecRequest>(
    target: SshTarget,
    request: R,
    send: (target: SshTarget, request: R) => Promise<ExecResult>,
  ) => {
    const end = run.command(target.label, redact(quoteArgv(request.argv)).slice(0, MAX_COMMAND_LINE));
    try {
      const result = await send(target, request);
      end(result.exitCode === 0 ? undefined : `exit ${result.exitCode ?? result.signal}`);
      return result;
    } catch (error) {
      end(redact(error instanceof Error ? error.message : String(error)));
      throw error;
    }
  };
  return {
    exec: (target, request) => traced(target, request, shell.exec),
    runDetached: (target, request) => traced(target, request, shell.runDetached),
    probeDetached: (...probe) => shell.probeDetached(...probe),
    probeHostKey: (target, timeoutMs) => shell.probeHostKey(target, timeoutMs),
    pruneDetached: (target, request) => shell.pruneDetached(target, request),
  };
}
