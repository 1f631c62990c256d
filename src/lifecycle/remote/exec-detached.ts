import type { StepContext } from '../plan/step.js';
import type { DetachedState, ExecRequest, ExecResult, SshTarget } from '../ports/remote-shell.js';
import { opsTarget } from '../targets.js';
import { detachedFolder, legacyFolderOf } from './detached-folder.js';

/**
 * What a resumed step found of its detached command: nothing started, or a run to follow and the
 * folder it runs in (its place's, or the legacy one an older worker started it in).
 */
export type FoundRun =
  | { readonly state: Exclude<DetachedState, 'none'>; readonly folder: string }
  | undefined;

/** Where a step's detached command runs: the host, its folder there, and what reaching that folder takes. */
export interface DetachedPlace {
  readonly target: SshTarget;
  readonly folder: string;
  readonly runAs?: readonly string[] | undefined;
}

/** The ops host, in the step's folder under the repo's `.cache/cluster-bot/`. */
export function opsPlace(ctx: StepContext): DetachedPlace {
  return { target: opsTarget(ctx.world), folder: detachedFolder(ctx) };
}

/**
 * How far the host's clock (the runner's pid file time) may lag the bot's (the job's record) before a
 * legacy run of this job is taken for a foreign one. Missing our own run starts its command a second
 * time, the incident detaching exists to prevent; a foreign run of the same job id and step started
 * in these two minutes before ours was recorded needs two deployments sharing the ops host at once.
 */
export const HOST_CLOCK_SKEW_MS = 120_000;

/**
 * A resumed step's run, if its command was started (only an interrupted step has one to look for).
 * During a rolling update a worker of the version before folder tags may have started this tagged
 * job's command in the legacy `<job>/<step>`: that run is followed, never started again, but only
 * one whose runner started after the job was recorded, less HOST_CLOCK_SKEW_MS; an older one is a
 * foreign job's of the same id, never ours.
 */
export async function findDetachedRun(ctx: StepContext, place: DetachedPlace): Promise<FoundRun> {
  if (!ctx.interrupted) return undefined;
  const { target, folder, runAs } = place;
  const timeoutMs = ctx.cluster.timeouts.nodeCommand;
  const state = await ctx.shell.probeDetached(target, folder, timeoutMs, runAs);
  if (state !== 'none') return { state, folder };
  const legacy = legacyFolderOf(ctx, folder);
  if (legacy === undefined || ctx.recordedAt === undefined) return undefined;
  const since = ctx.recordedAt - HOST_CLOCK_SKEW_MS;
  const started = await ctx.shell.probeDetached(target, legacy, timeoutMs, runAs, since);
  if (started === 'none') return undefined;
  await ctx.note(
    `a worker of a version before folder tags started this step's command in ${legacy} on ${target.label}, after this job was recorded (clocks two minutes apart allowed): it is this job's, followed there`,
  );
  return { state: started, folder: legacy };
}

export interface DetachedOptions {
  /**
   * Its output is read whole, from the first line, by every run that follows it (Ansible's ad-hoc
   * result is parsed once it ended, and shown then): no count of shown lines is kept.
   */
  readonly whole?: boolean;
}

/**
 * Runs a mutating step's command detached on its host, or follows the run `found`: every line is
 * shown once, the count of shown lines checkpointed with it, so a worker that takes over goes on
 * from the next line.
 */
export async function execDetached(
  ctx: StepContext,
  place: DetachedPlace,
  title: string,
  request: ExecRequest,
  found: FoundRun,
  options: DetachedOptions = {},
): Promise<ExecResult> {
  const counted = options.whole !== true;
  const fromLine = found && counted ? await ctx.shown.read() : 0;
  if (found?.state === 'running')
    await ctx.note(`worker restarted; following the running \`${title}\` from line ${fromLine + 1}`);
  if (found?.state === 'ended')
    await ctx.note(
      `worker restarted; \`${title}\` ended while no worker followed it; its output from line ${fromLine + 1}`,
    );
  let lines = fromLine;
  let marked: Promise<void> = Promise.resolve();
  let markFailure: { readonly error: unknown } | undefined;
  const result = await ctx.shell.runDetached(place.target, {
    ...request,
    folder: found?.folder ?? place.folder,
    runAs: place.runAs,
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
      if (counted)
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
  options?: DetachedOptions,
): Promise<ExecResult> {
  const place = opsPlace(ctx);
  return execDetached(ctx, place, title, request, found ?? (await findDetachedRun(ctx, place)), options);
}
