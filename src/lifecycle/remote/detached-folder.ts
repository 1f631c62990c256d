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

/** What names a job on a host: its id and the folder tag recorded with it. */
export type JobContext = Pick<StepContext, 'jobId' | 'folderTag'>;
type FolderContext = JobContext & Pick<StepContext, 'world' | 'stepId'>;

/**
 * Where a step's detached command keeps its output, pid and exit code on the ops host: under the
 * repo's ignored `.cache/`, one folder per job and step (`<job>-<tag>/<step>`, jobFolderName), so a
 * resumed step finds its own run.
 */
export function detachedFolder(ctx: FolderContext): string {
  return `${detachedJobsRoot(ctx)}/${jobAndStep(ctx)}`;
}

/** The same on a node: `/var/lib/cluster-bot/<job>-<tag>/<step>`. */
export function nodeDetachedFolder(ctx: FolderContext): string {
  return `${NODE_DETACHED_ROOT}/${jobAndStep(ctx)}`;
}

/** The ops host's folder of every job's detached commands (`<repo>/.cache/cluster-bot`). */
export function detachedJobsRoot(ctx: Pick<StepContext, 'world'>): string {
  return `${repoPaths(ctx.world).root}/.cache/cluster-bot`;
}

/**
 * The name of a job's own folder under a root, `<job>-<tag>`, and of anything else a job leaves on a
 * host for itself to find again (its saved tofu plan, the etcd data a restore moves aside). Job ids
 * restart at job-1 (a new Redis prefix, a Redis that lost its data), and another deployment may share
 * the ops host and the cluster: the id alone would meet a foreign run's leftovers, and a step would
 * refuse to start, follow that run's output and exit code, or take its files for its own. A job
 * recorded by a version before tags has none, and keeps the bare `<job>` its running commands and
 * files were named by, so a resumed step finds them and never starts them twice.
 */
export function jobFolderName(ctx: JobContext): string {
  const name = ctx.folderTag === undefined ? ctx.jobId : `${ctx.jobId}-${ctx.folderTag}`;
  checkSegment('job folder', name);
  return name;
}

/**
 * Where a worker of the version before folder tags runs a tagged job's step whose place is `folder`:
 * the same under the bare `<job>` (that version ignores the tag). Undefined for a job without a tag,
 * whose folder is that already.
 */
export function legacyFolderOf(ctx: FolderContext, folder: string): string | undefined {
  if (ctx.folderTag === undefined) return undefined;
  const tagged = `/${jobAndStep(ctx)}`;
  if (!folder.endsWith(tagged)) return undefined;
  return `${folder.slice(0, -tagged.length)}/${ctx.jobId}/${ctx.stepId}`;
}

function jobAndStep(ctx: FolderContext): string {
  const job = jobFolderName(ctx);
  checkSegment('step id', ctx.stepId);
  return `${job}/${ctx.stepId}`;
}

function checkSegment(what: string, value: string): void {
  if (!SEGMENT.test(value)) {
    throw new ClusterBotError(
      'COMMAND_INVALID',
      `The ${what} ${JSON.stringify(value)} cannot name a folder (letters, digits, ".", "_", "-", not first)`,
      { details: { [what]: value } },
    );
  }
}
