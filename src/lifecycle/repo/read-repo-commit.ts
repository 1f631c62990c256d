import type { StepContext } from '../plan/step.js';
import { captureRemoteOrFail } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';

/** The infra repo's HEAD on the ops host: what an approval of a playbook is bound to. */
export async function readRepoCommit(ctx: StepContext): Promise<string> {
  const out = await captureRemoteOrFail(ctx, opsTarget(ctx.world), ['git', 'rev-parse', 'HEAD'], {
    cwd: repoPaths(ctx.world).root,
  });
  const commit = out.trim();
  ctx.repoFiles.commitSeen(commit);
  return commit;
}
