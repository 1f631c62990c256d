import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { readRepoCommit } from './read-repo-commit.js';

/** A file of the infra repo on the ops host, by its path from the repo root; undefined when absent. Once per commit a run. */
export function readRepoText(ctx: StepContext, relPath: string): Promise<string | undefined> {
  return ctx.repoFiles.read(
    relPath,
    () => readRepoCommit(ctx),
    async () => {
      const { exitCode, stdout } = await captureRemote(ctx, opsTarget(ctx.world), [
        'cat',
        '--',
        `${repoPaths(ctx.world).root}/${relPath}`,
      ]);
      return exitCode === 0 ? stdout : undefined;
    },
  );
}
