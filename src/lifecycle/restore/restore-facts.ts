import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { type JobContext, jobFolderName } from '../remote/detached-folder.js';
import type { SnapshotToRestore } from './find-snapshot.js';

/** The snapshot the approval was given for, kept as a job fact: every later step restores exactly it. */
export const RESTORE_SNAPSHOT_FACT = 'restoreSnapshot';

/** k3s's data under its default data dir: what a server that re-joins moves aside. */
export const K3S_DB_DIR = '/var/lib/rancher/k3s/server/db';

/**
 * Where a re-joining server's old etcd data is kept (never deleted), named by the job that moved it
 * as its folders are (jobFolderName): a foreign run's data set aside under the same job id is never
 * taken for this job's, which would leave the old data in place for k3s to start on.
 */
export function dbAside(ctx: JobContext): string {
  return dbAsideNamed(jobFolderName(ctx));
}

/** dbAside as a plan shows it, before the job is known. */
export const DB_ASIDE_SHOWN = dbAsideNamed('<job>-<tag>');

function dbAsideNamed(job: string): string {
  return `${K3S_DB_DIR}.cluster-bot-${job}`;
}

export function snapshotBeingRestored(ctx: StepContext): SnapshotToRestore {
  const snapshot = ctx.facts.get<SnapshotToRestore>(RESTORE_SNAPSHOT_FACT);
  if (!snapshot) {
    throw new ClusterBotError(
      'PRECONDITION_FAILED',
      'no approved snapshot to restore: the approval step has not run',
    );
  }
  return snapshot;
}

/** The configured servers, in config order (the order they re-join in). */
export function serversOf(ctx: Pick<StepContext, 'cluster'>) {
  return ctx.cluster.nodes.filter((node) => node.roles.includes('server'));
}
