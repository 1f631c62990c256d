import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { repoPaths } from '../repo-paths.js';

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Where a node keeps the bot's detached commands: root's alone (the start makes it 0700 under
 * umask 077), outside k3s's data, so k3s-uninstall.sh, which removes /var/lib/rancher, leaves it.
 */
export const NODE_DETACHED_ROOT = '/var/lib/cluster-bot';

/** The job fact naming the nodes a job ran detached commands on (their folders are pruned at its end). */
export const DETACHED_NODES_FACT = 'detachedOnNodes';

type FolderContext = Pick<StepContext, 'world' | 'jobId' | 'stepId'>;

/**
 * Where a step's detached command keeps its output, pid and exit code on the ops host: under the
 * repo's ignored `.cache/`, one folder per job and step, so a resumed step finds its own run.
 */
export function detachedFolder(ctx: FolderContext): string {
  return `${detachedJobsRoot(ctx)}/${jobAndStep(ctx)}`;
}

/** The same on a node: `/var/lib/cluster-bot/<job>/<step>`. */
export function nodeDetachedFolder(ctx: FolderContext): string {
  return `${NODE_DETACHED_ROOT}/${jobAndStep(ctx)}`;
}

/** The ops host's folder of every job's detached commands (`<repo>/.cache/cluster-bot`). */
export function detachedJobsRoot(ctx: Pick<StepContext, 'world'>): string {
  return `${repoPaths(ctx.world).root}/.cache/cluster-bot`;
}

function jobAndStep(ctx: FolderContext): string {
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
  return `${ctx.jobId}/${ctx.stepId}`;
}
