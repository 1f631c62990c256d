import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { repoPaths } from './repo-paths.js';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Where a step's detached command keeps its output, pid and exit code on the ops host: under the
 * repo's ignored `.cache/`, one folder per job and step, so a resumed step finds its own run.
 */
export function detachedFolder(ctx: Pick<StepContext, 'world' | 'jobId' | 'stepId'>): string {
  for (const [what, value] of [
    ['job id', ctx.jobId],
    ['step id', ctx.stepId],
  ] as const) {
    if (!SEGMENT.test(value)) {
      throw new ClusterBotError(
        'COMMAND_INVALID',
        `The ${what} ${JSON.stringify(value)} cannot name a folder (letters, digits, ".", "_", "-", not first)`,
        { details: { [what]: value } },
      );
    }
  }
  return `${repoPaths(ctx.world).root}/.cache/cluster-bot/${ctx.jobId}/${ctx.stepId}`;
}
