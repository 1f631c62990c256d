import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemoteOrFail } from './capture-remote.js';
import { repoPaths } from './repo-paths.js';

const SHOWN = 10;

/**
 * An approval binds a commit; uncommitted edits on the ops host would run without anyone having
 * seen them, so a disruptive step refuses a dirty checkout and names what is dirty.
 */
export async function requireCleanCheckout(ctx: StepContext): Promise<void> {
  const status = await captureRemoteOrFail(ctx, opsTarget(ctx.world), ['git', 'status', '--porcelain'], {
    cwd: repoPaths(ctx.world).root,
  });
  const files = status
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(3));
  if (files.length === 0) return;
  const more = files.length > SHOWN ? ` and ${files.length - SHOWN} more` : '';
  throw new ClusterBotError(
    'PRECONDITION_FAILED',
    `the infra checkout on the ops host has uncommitted changes (${files.slice(0, SHOWN).join(', ')}${more}): ` +
      'commit or discard them, so the approval covers what will run',
    { details: { dirty: files } },
  );
}
