import type { Plan } from '../plan/plan.js';
import type { PruneRequest, SshTarget } from '../ports/remote-shell.js';
import {
  DETACHED_NODES_FACT,
  detachedJobsRoot,
  jobFolderName,
  NODE_DETACHED_ROOT,
} from '../remote/detached-folder.js';
import { privileged } from '../remote/node-commands.js';
import { nodeTarget, opsTarget } from '../targets.js';
import { hostKeyPinsOf } from './create-step-context.js';
import { loadJobFacts } from './job-facts.js';
import type { EngineDeps } from './run-plan.js';

/**
 * How long another job's folder may lie untouched before a job's end removes it: a week outlasts
 * any job's life (an approval waits hours, a stalled job is resumed within a minute), so only a
 * folder whose own end could not reach its host is ever this old.
 */
export const STALE_DETACHED_MINUTES = 7 * 24 * 60;

/**
 * Once a job ended for good, its detached commands' folders go: on the ops host and on each node
 * one ran on (the job fact DETACHED_NODES_FACT). Everything in them was shown in the job's log, which
 * keeps it (redacted) for its retention; the folders hold it unredacted, on hosts others use. Other
 * jobs' folders left untouched longer than `olderThanMinutes` go too (their own end could not reach
 * the host). A step whose command still runs is never removed. Pruning never fails the job: a host
 * it cannot reach is pruned by a later job's end, and the operator reads in the log which and why.
 */
export async function pruneDetachedFolders(
  deps: EngineDeps,
  plan: Plan,
  olderThanMinutes: number,
): Promise<void> {
  // The job has settled: a record whose tag cannot name a folder, or facts that cannot be read, leave
  // its folders to a later job's end (as stale ones), never turn its outcome into a failure.
  await pruneEveryPlace(deps, plan, olderThanMinutes).catch((error: unknown) =>
    warnNotPruned(deps, undefined, error),
  );
}

async function pruneEveryPlace(deps: EngineDeps, plan: Plan, olderThanMinutes: number): Promise<void> {
  const cluster = deps.world.clusters[plan.cluster];
  if (!cluster || !plan.steps.some((step) => step.detached)) return;
  const facts = await loadJobFacts(deps.checkpoints);
  const keptHostKeys = await hostKeyPinsOf(deps).read(cluster.name);
  const request = { jobFolder: jobFolderName(deps), olderThanMinutes };
  const places: Array<[SshTarget, PruneRequest]> = [
    [opsTarget(deps.world), { ...request, root: detachedJobsRoot(deps) }],
  ];
  for (const name of facts.get<string[]>(DETACHED_NODES_FACT) ?? []) {
    const node = cluster.nodes.find((entry) => entry.name === name);
    if (!node) continue;
    places.push([
      nodeTarget({ cluster, facts, keptHostKeys }, node),
      { ...request, root: NODE_DETACHED_ROOT, runAs: privileged(cluster, []) },
    ]);
  }
  await Promise.all(
    places.map(([target, prune]) =>
      deps.shell
        .pruneDetached(target, prune)
        .catch((error: unknown) => warnNotPruned(deps, target.label, error)),
    ),
  );
}

/** The operator's word that a host (undefined: every one) keeps the job's folders for now. */
function warnNotPruned(deps: EngineDeps, host: string | undefined, error: unknown): void {
  deps.log?.warn(
    { host, reason: error instanceof Error ? error.message : String(error) },
    `job ${deps.jobId}'s detached folders not pruned${host ? ` on ${host}` : ''}; a later job's end removes them once stale`,
  );
}
