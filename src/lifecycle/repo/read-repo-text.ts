import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../steps/capture-remote.js';
import { repoPaths } from '../steps/repo-paths.js';
import { opsTarget } from '../targets.js';

/** A file of the infra repo on the ops host, by its path from the repo root; undefined when absent. */
export async function readRepoText(ctx: StepContext, relPath: string): Promise<string | undefined> {
  const { exitCode, stdout } = await captureRemote(ctx, opsTarget(ctx.world), [
    'cat',
    '--',
    `${repoPaths(ctx.world).root}/${relPath}`,
  ]);
  return exitCode === 0 ? stdout : undefined;
}
