import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { SshTarget } from '../ports/remote-shell.js';

export interface Captured {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CaptureOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

const MAX_CAPTURE = 1024 * 1024;

/** Runs a short command and keeps its output (bounded): for reads such as a file or a commit. */
export async function captureRemote(
  ctx: StepContext,
  target: SshTarget,
  argv: readonly string[],
  options: CaptureOptions = {},
): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  let size = 0;
  const result = await ctx.shell.exec(target, {
    argv,
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs ?? ctx.cluster.timeouts.nodeCommand,
    signal: ctx.signal,
    onLine: (line, stream) => {
      size += line.length + 1;
      if (size <= MAX_CAPTURE) (stream === 'stdout' ? out : err).push(line);
    },
  });
  return { exitCode: result.exitCode, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Like captureRemote, but a non-zero exit is a failure naming the command and its stderr. */
export async function captureRemoteOrFail(
  ctx: StepContext,
  target: SshTarget,
  argv: readonly string[],
  options: CaptureOptions = {},
): Promise<string> {
  const captured = await captureRemote(ctx, target, argv, options);
  if (captured.exitCode !== 0) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${argv.join(' ')} on ${target.label} exited ${captured.exitCode}`,
      {
        details: {
          target: target.label,
          argv,
          exitCode: captured.exitCode,
          stderr: captured.stderr.slice(-2000),
        },
      },
    );
  }
  return captured.stdout;
}
