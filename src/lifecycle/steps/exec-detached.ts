import type { StepContext } from '../plan/step.js';
import type { DetachedState, ExecRequest, ExecResult, SshTarget } from '../ports/remote-shell.js';
import { opsTarget } from '../targets.js';
import { detachedFolder } from './detached-folder.js';

/** What a resumed step found of its detached command: nothing started, or a run to follow. */
export type FoundRun = Exclude<DetachedState, 'none'> | undefined;

/** A resumed step's run, if its command was started (only an interrupted step has one to look for). */
export async function findDetachedRun(ctx: StepContext, target: SshTarget): Promise<FoundRun> {
  if (!ctx.interrupted) return undefined;
  const state = await ctx.shell.probeDetached(target, detachedFolder(ctx), ctx.cluster.timeouts.nodeCommand);
  return state === 'none' ? undefined : state;
}

/**
 * Runs a mutating step's command detached on its host, or follows the run `found`: every line is
 * shown once, the count of shown lines checkpointed with it, so a worker that takes over goes on
 * from the next line.
 */
export async function execDetached(
  ctx: StepContext,
  target: SshTarget,
  title: string,
  request: ExecRequest,
  found: FoundRun,
): Promise<ExecResult> {
  const fromLine = found ? await ctx.shown.read() : 0;
  if (found === 'running')
    await ctx.note(`worker restarted; following the running \`${title}\` from line ${fromLine + 1}`);
  if (found === 'ended')
    await ctx.note(
      `worker restarted; \`${title}\` ended while no worker followed it; its output from line ${fromLine + 1}`,
    );
  let lines = fromLine;
  let marked: Promise<void> = Promise.resolve();
  let markFailure: { readonly error: unknown } | undefined;
  const result = await ctx.shell.runDetached(target, {
    ...request,
    folder: detachedFolder(ctx),
    fromLine,
    attach: found !== undefined,
    onLost: (error, retryInMs) =>
      ctx.progress(
        `${error.message}; \`${title}\` goes on there, following it again in ${Math.ceil(retryInMs / 1000)} s`,
      ),
    onLine: (line, stream) => {
      lines += 1;
      // The count is handed over in the line's own tick, so where the store batches both leave in one
      // pipeline; the stream waits for the line only, not for a round trip per line.
      marked = ctx.shown.write(lines).catch((error: unknown) => {
        markFailure ??= { error };
      });
      return request.onLine?.(line, stream);
    },
  });
  await marked;
  if (markFailure) throw markFailure.error;
  return result;
}

/**
 * A mutating command on the ops host, run detached: a resumed step follows the run it finds (to its
 * end, or reads how it ended) instead of starting it again; otherwise it is started.
 */
export async function execOnOpsDetached(
  ctx: StepContext,
  title: string,
  request: ExecRequest,
  found?: FoundRun,
): Promise<ExecResult> {
  const target = opsTarget(ctx.world);
  return execDetached(ctx, target, title, request, found ?? (await findDetachedRun(ctx, target)));
}
