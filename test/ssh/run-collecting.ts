import type {
  ExecRequest,
  ExecResult,
  RemoteShell,
  SshTarget,
} from '../../src/lifecycle/ports/remote-shell.js';

export interface Collected extends ExecResult {
  readonly stdout: string[];
  readonly stderr: string[];
}

/** Runs argv and keeps every output line, per stream. */
export async function runCollecting(
  shell: RemoteShell,
  target: SshTarget,
  argv: readonly string[],
  extra: Partial<ExecRequest> = {},
): Promise<Collected> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const result = await shell.exec(target, {
    argv,
    timeoutMs: 10_000,
    onLine: (line, stream) => {
      (stream === 'stdout' ? stdout : stderr).push(line);
    },
    ...extra,
  });
  return { ...result, stdout, stderr };
}
