import type { ExecRequest, RemoteShell, SshTarget } from '../../src/lifecycle/ports/remote-shell.js';

export interface ScriptedReply {
  readonly exitCode?: number;
  readonly stdout?: readonly string[];
  readonly stderr?: readonly string[];
  readonly error?: Error;
}

export interface ShellCall {
  readonly target: string;
  readonly argv: readonly string[];
  readonly cwd?: string | undefined;
}

/** A RemoteShell for unit tests: each exec is answered by the test's handler and recorded. */
export function createScriptedShell(
  handler: (call: ShellCall) => ScriptedReply | undefined,
  hostKey = 'SHA256:bmV3LWhvc3Qta2V5',
): RemoteShell & { calls: ShellCall[] } {
  const calls: ShellCall[] = [];
  return {
    calls,
    async exec(target: SshTarget, request: ExecRequest) {
      const call = { target: target.label, argv: request.argv, cwd: request.cwd };
      calls.push(call);
      const reply = handler(call) ?? {};
      if (reply.error) throw reply.error;
      for (const line of reply.stdout ?? []) await request.onLine?.(line, 'stdout');
      for (const line of reply.stderr ?? []) await request.onLine?.(line, 'stderr');
      return { exitCode: reply.exitCode ?? 0, signal: null, durationMs: 1 };
    },
    async probeHostKey() {
      return hostKey;
    },
  };
}
